#!/bin/bash
# Stage 2 of the shared test VM (vm.sh group; vm-server.sh): runs inside the
# guest, chrooted into the host's root, as root, in place of guest-stage2.sh.
# It takes the jobs the host queues in $FGRAB_OUT/.vm/queue one at a time
# and runs each with guest-stage2.sh (which loads the drivers with the
# group's parameters and runs its scenario), its section of the console
# between FGRAB-VM-JOB-BEGIN ID and FGRAB-VM-JOB-END ID STATUS.
#
# Groups stay independent: after each job the guest kills every process the
# job left, unloads vivid and v4l2loopback and empties /tmp, /run/user and
# /dev/shm.  When that fails (a process stuck in the kernel, a driver that
# will not unload: FGRAB-VM-WEDGED, that job fails), or the kernel logged an
# oops or a warning during the job, the VM powers off after the job and the
# host boots a fresh one for the next.  It powers off when idle for
# FGRAB_VM_IDLE seconds or when the host asks ($FGRAB_OUT/.vm/stop).
set -uo pipefail

export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
state=${FGRAB_OUT:?}/.vm
queue=$state/queue
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
idle_max=${FGRAB_VM_IDLE:-30}
DRIVERS=(v4l2loopback vivid)
# /proc/sys/kernel/tainted: D (oops), W (warning), L (soft lockup)
TAINT_BROKEN=$(((1 << 7) | (1 << 9) | (1 << 14)))

uptime_s() { cut -d' ' -f1 /proc/uptime; }

# next_job: the oldest queued job's file name (ids sort by time).
next_job() {
	local f
	for f in "$queue"/*.job; do
		[ -e "$f" ] || return 1
		basename "$f"
		return 0
	done
	return 1
}

# leftovers: the pids of user processes other than init and this server
# (kernel threads are children of kthreadd, pid 2; zombies are harmless).
leftovers() {
	local d pid rest ppid st
	for d in /proc/[0-9]*; do
		pid=${d#/proc/}
		# not init, not this server, not the subshell listing them
		if [ "$pid" -le 2 ] || [ "$pid" = $$ ] || [ "$pid" = "$BASHPID" ]; then continue; fi
		read -r rest <"$d/stat" 2>/dev/null || continue
		rest=${rest##*) }
		st=${rest%% *}
		rest=${rest#* }
		ppid=${rest%% *}
		[ "$ppid" != 2 ] && [ "$st" != Z ] && echo "$pid"
	done
}

# kill_leftovers: TERM, then KILL, what the job left; fails naming what
# survives both.
kill_leftovers() {
	local sig pids i p
	for sig in TERM KILL; do
		pids=$(leftovers)
		[ -n "$pids" ] || return 0
		# shellcheck disable=SC2086 # a list of pids
		kill -"$sig" $pids 2>/dev/null
		for ((i = 0; i < 30; i++)); do
			[ -n "$(leftovers)" ] || return 0
			sleep 0.1
		done
	done
	for p in $(leftovers); do
		echo "fgrab-vm: still running after SIGKILL: $p $(tr '\0' ' ' <"/proc/$p/cmdline" 2>/dev/null) (state $(awk '{print $3}' "/proc/$p/stat" 2>/dev/null), in $(cat "/proc/$p/wchan" 2>/dev/null))"
	done
	return 1
}

# unload_drivers: no driver of the job stays loaded (the next job loads its
# own with its own parameters).
unload_drivers() {
	local m i
	for m in "${DRIVERS[@]}"; do
		for ((i = 0; i < 30; i++)); do
			[ -d "/sys/module/$m" ] || break
			rmmod "$m" 2>/dev/null && break
			sleep 0.1
		done
		[ ! -d "/sys/module/$m" ] || { echo "fgrab-vm: $m will not unload: $(rmmod "$m" 2>&1)"; return 1; }
	done
}

clear_tmp() {
	rm -rf /tmp/* /tmp/.[!.]* /tmp/..?* /dev/shm/* /run/user 2>/dev/null
	return 0
}

# run_job FILE: one group; fails when the guest is not fit for another.
run_job() {
	local f=$1 id rc t0 taint0 taint1 fit=0 JOB_OUT JOB_TIMEOUT
	id=$(basename "$f" .job)
	# shellcheck source=/dev/null # written by vm.sh: JOB_OUT, JOB_TIMEOUT
	. "$f"
	t0=$(uptime_s)
	echo "FGRAB-VM-JOB-BEGIN $id"
	echo "fgrab-vm: group $(basename "$JOB_OUT") in the VM up since ${t0%.*} s"
	taint0=$(</proc/sys/kernel/tainted)
	# the guest's own hang guard comes before the host's (JOB_TIMEOUT), so
	# that a group that hangs is cleaned up and the VM serves the next
	env -i PATH="$PATH" TERM="${TERM:-linux}" FGRAB_OUT="$JOB_OUT" \
		${FGRAB_GUEST_CACHE:+FGRAB_GUEST_CACHE="$FGRAB_GUEST_CACHE"} \
		timeout -k 10 $((JOB_TIMEOUT > 90 ? JOB_TIMEOUT - 60 : 30)) bash "$here/guest-stage2.sh" </dev/null
	rc=$?
	case $rc in 124 | 137) echo "fgrab-vm: the group did not end in time (the guest's hang guard killed it)" ;; esac
	if ! kill_leftovers || ! unload_drivers; then
		echo "FGRAB-VM-WEDGED: the group left a process or driver that cannot be stopped (above); the next group gets a fresh VM"
		fit=1
	fi
	clear_tmp
	taint1=$(</proc/sys/kernel/tainted)
	if (((taint1 & ~taint0) & TAINT_BROKEN)); then
		echo "fgrab-vm: the kernel logged an oops or a warning during this group (tainted $taint0 -> $taint1); the next group gets a fresh VM"
		fit=1
	fi
	sync
	echo "fgrab-vm: group done in $(echo "$(uptime_s) $t0" | awk '{printf "%.1f", $1 - $2}') s"
	echo "FGRAB-VM-JOB-END $id $rc"
	rm -f "$f"
	return "$fit"
}

echo "fgrab-vm: serving jobs from $queue (up at $(uptime_s) s)"
mkdir -p "$state/running"
last=$SECONDS
while :; do
	if [ -e "$state/stop" ]; then
		echo "fgrab-vm: the host asked to power off"
		break
	fi
	if ! job=$(next_job); then
		if [ $((SECONDS - last)) -ge "$idle_max" ]; then
			echo "fgrab-vm: idle for ${idle_max} s: powering off"
			break
		fi
		sleep 0.3
		continue
	fi
	# taken: a job another guest took is gone from the queue
	mv "$queue/$job" "$state/running/$job" 2>/dev/null || continue
	run_job "$state/running/$job" || break
	last=$SECONDS
done
exit 0
