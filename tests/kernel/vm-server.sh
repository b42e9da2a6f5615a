# shellcheck shell=bash
# The shared test VM of tests/kernel/vm.sh (sourced by it): one VM runs the
# scenario groups of a directory one after another, instead of a boot per
# group (under TCG a boot costs 8-10 s of the machine's two cores).
#
#   vm.sh group [--out DIR] [--timeout SEC] SCRIPT [ARGS...]
#       what a meson test runs: submits SCRIPT to the VM that serves DIR's
#       parent (starting it if none runs), waits for its result, prints its
#       section of the console and exits with its status, as "run" does.
#   vm.sh serve SHARE STAMP      (internal) the VM itself, started detached
#   vm.sh stop SHARE             powers the VM of SHARE off, if one runs
#
# SHARE (the parent of the groups' results dirs) is the VM's writable share;
# SHARE/.vm holds its state: the queue of jobs (queue/ID.job, taken by the
# guest into running/), "server" (the serve process's pid and the STAMP of
# the build it serves), and console-PID.log, the serial console of each VM.
# The guest (guest-server.sh) marks each job's section of the console with
# FGRAB-VM-JOB-BEGIN ID and FGRAB-VM-JOB-END ID STATUS.  Between two jobs it
# kills what the previous one left running, unloads the drivers and clears
# /tmp; when that fails (a process or driver that hangs), or the kernel
# logged an oops, the job fails or says so and the VM powers off, and the
# next job boots a fresh one.  A VM idle for FGRAB_VM_IDLE seconds (default
# 30) powers off by itself.

# from vm.sh: the harness's dir and the source tree
# shellcheck disable=SC2154
: "$here" "$srcdir"

# server_state SHARE: the state dir of SHARE's VM.
server_state() { echo "$1/.vm"; }

# server_pid STATE: the pid of the live serve process of STATE, if any.
server_pid() {
	local pid _stamp
	[ -r "$1/server" ] || return 1
	read -r pid _stamp <"$1/server" || return 1
	[ -n "$pid" ] && kill -0 "$pid" 2>/dev/null || return 1
	# a reused pid is not our VM
	tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -qF "vm.sh serve ${1%/.vm} " || return 1
	echo "$pid"
}

server_stamp() {
	local _pid stamp=
	[ -r "$1/server" ] && read -r _pid stamp <"$1/server"
	echo "$stamp"
}

# build_stamp: what the guest would see change: the kernel, the cache, the
# newest file of the harness and of the build.  A VM that serves another
# stamp is replaced: its guest caches the host's files (9p cache=loose).
build_stamp() {
	local newest
	newest=$(find "$here" "$srcdir/examples" ${BUILD:+"$BUILD/.ninja_log" "$BUILD/build.ninja"} \
		-printf '%T@\n' 2>/dev/null | sort -n | tail -n1)
	echo "$KVER:$(cache_dir | md5sum | cut -c1-8):${newest:-0}"
}

# stop_server STATE: asks the guest to power off after its current job,
# waits (60 s), then kills the VM.
stop_server() {
	local state=$1 pid i
	pid=$(server_pid "$state") || return 0
	: >"$state/stop"
	for ((i = 0; i < 600; i++)); do
		kill -0 "$pid" 2>/dev/null || return 0
		sleep 0.1
	done
	log "the VM (serve pid $pid) did not power off within 60 s: killing it"
	kill_server "$state" "$pid"
}

# kill_server STATE PID: ends the serve process and its qemu (its own
# process group, setsid).
kill_server() {
	kill -- "-$2" 2>/dev/null || kill "$2" 2>/dev/null || true
	sleep 1
	kill -KILL -- "-$2" 2>/dev/null || true
	rm -f "$1/server"
}

# start_server SHARE STATE STAMP: a new VM, detached from the caller (meson
# waits on a test's output, not on this); call under the state lock.
start_server() {
	local share=$1 state=$2 stamp=$3 i pid
	rm -f "$state/server" "$state/stop"
	# every descriptor but the three closed or redirected: fd 9 holds the lock
	setsid "$here/vm.sh" serve "$share" "$stamp" </dev/null >>"$state/serve.log" 2>&1 9>&- &
	for ((i = 0; i < 100; i++)); do
		pid=$(server_pid "$state") && return 0
		sleep 0.1
	done
	vm_fail "the VM for $share did not start (see $state/serve.log)"
}

# ensure_server SHARE STAMP: a VM for SHARE serving STAMP runs afterwards.
ensure_server() {
	local share=$1 stamp=$2 state pid
	state=$(server_state "$share")
	(
		flock 9
		if pid=$(server_pid "$state") && [ "$(server_stamp "$state")" != "$stamp" ]; then
			log "the running VM serves another build (its guest caches the host's files): replacing it"
			stop_server "$state"
			pid=
		fi
		if [ -z "$pid" ]; then start_server "$share" "$state" "$stamp"; fi
	) 9>"$state/lock"
}

# job_section STATE ID: the console lines of job ID (from its BEGIN line to
# its END line, or to the end of the log if the VM died before).
job_section() {
	local f
	f=$(grep -l -x -F "FGRAB-VM-JOB-BEGIN $2" "$1"/console-*.log 2>/dev/null | head -n1) || true
	[ -n "$f" ] || return 0
	awk -v id="$2" '$0 == "FGRAB-VM-JOB-BEGIN " id { p = 1 } p { print }
		p && $1 == "FGRAB-VM-JOB-END" && $2 == id { exit }' "$f"
}

# job_status STATE ID: the job's exit status once its END line is there.
job_status() {
	job_section "$1" "$2" | awk -v id="$2" '$1 == "FGRAB-VM-JOB-END" && $2 == id { print $3; f = 1 }
		END { exit !f }'
}

# wait_job SHARE STATE ID TMO STAMP: waits for job ID; restarts a VM that
# powered off before it took the job; sets JOB_ST (status, or "" when the
# VM died with the job or the time ran out) and JOB_WHY.
wait_job() {
	local share=$1 state=$2 id=$3 tmo=$4 stamp=$5 t0=$SECONDS restarts=0
	JOB_ST='' JOB_WHY=
	while :; do
		JOB_ST=$(job_status "$state" "$id") && return 0
		if ! server_pid "$state" >/dev/null; then
			# the END line may have come with the VM's last output
			JOB_ST=$(job_status "$state" "$id") && return 0
			if [ -e "$state/queue/$id.job" ] && [ "$restarts" -lt 3 ]; then
				restarts=$((restarts + 1))
				log "the VM powered off before taking the job: starting another"
				ensure_server "$share" "$stamp"
				continue
			fi
			JOB_WHY="the VM ended during the group (kernel panic or qemu failure? the console section is above)"
			return 0
		fi
		if [ $((SECONDS - t0)) -ge "$tmo" ]; then
			JOB_WHY="no result within ${tmo}s (hung guest or group): the VM was killed, the next group boots a fresh one"
			kill_server "$state" "$(server_pid "$state")"
			return 0
		fi
		sleep 0.5
	done
}

# report_job OUT SECTION-FILE: the verdict of a finished job, as "run"
# gives it (99 for the VM, 1 for a skip).
report_job() {
	local out=$1 sec=$2 dt=$3
	if grep -q 'FGRAB-VM-SETUP-FAILED:' "$sec"; then
		vm_fail "guest setup failed: $(sed -n 's/.*FGRAB-VM-SETUP-FAILED: //p' "$sec" | head -n1)"
	fi
	[ -n "$JOB_ST" ] || vm_fail "$JOB_WHY. Console: $out/console.log"
	if grep -q '^FGRAB-VM-WEDGED:' "$sec"; then
		log "FAIL: the group left the guest unusable: $(sed -n 's/^FGRAB-VM-WEDGED: //p' "$sec" | head -n1)"
		[ "$JOB_ST" -ne 0 ] || JOB_ST=1
	fi
	log "group finished in ${dt}s; scenario $(basename "$SCRIPT") exit status $JOB_ST"
	exit_for_status "$JOB_ST"
}

# write_job STATE ID OUT TMO: queues the job (atomically: the guest polls).
write_job() {
	local state=$1 id=$2
	{
		printf 'JOB_OUT=%q\n' "$3"
		printf 'JOB_TIMEOUT=%q\n' "$4"
	} >"$state/queue/.$id.tmp"
	mv "$state/queue/.$id.tmp" "$state/queue/$id.job"
}

# cancel_job STATE ID: on SIGTERM (meson's timeout) or ^C: a queued job is
# withdrawn, a running one takes its VM down with it.
cancel_job() {
	local pid
	if ! rm "$1/queue/$2.job" 2>/dev/null && [ -e "$1/running/$2.job" ] &&
		! job_status "$1" "$2" >/dev/null && pid=$(server_pid "$1"); then
		kill_server "$1" "$pid"
	fi
	vm_fail "interrupted"
}

cmd_group() {
	parse_run_args "$@"
	resolve_host
	local out=$OPT_OUT tmo=$OPT_TMO share state id stamp
	[ -n "$out" ] || out="${BUILD:-$srcdir/build}/kernel-tests/$(basename "$SCRIPT" .sh)"
	out=$(prepare_out "$out")
	share=$(dirname "$out")
	local p
	for p in "$SCRIPT" "$here/guest-server.sh" "$here/guest-stage2.sh" "$share" "$srcdir" ${BUILD:+"$BUILD"}; do
		check_guest_visible "$p"
	done
	state=$(server_state "$share")
	mkdir -p "$state/queue" "$state/running"
	write_job_env "$out"
	stamp=$(build_stamp)
	# sortable: the guest takes the oldest first
	id=$(date +%s%N)-$(basename "$out")
	ensure_server "$share" "$stamp"
	# shellcheck disable=SC2064 # expand now
	trap "cancel_job '$state' '$id'" TERM INT
	write_job "$state" "$id" "$out" "$tmo"
	log "queued $(basename "$SCRIPT") ${SCRIPT_ARGS[*]} for the VM of $share (timeout ${tmo}s)"
	log "results in $out"
	local t0=$SECONDS
	wait_job "$share" "$state" "$id" "$tmo" "$stamp"
	trap - TERM INT
	job_section "$state" "$id" | tee "$out/console.log"
	report_job "$out" "$out/console.log" $((SECONDS - t0))
}

# -------------------------------------------------------------------- the VM
# cmd_serve SHARE STAMP: boots the VM serving SHARE and waits for it to
# power off; its console goes to STATE/console-PID.log.
cmd_serve() {
	local share=$1 stamp=$2 state initrd gcache console
	state=$(server_state "$share")
	resolve_host
	initrd=$(build_initramfs "$KVER")
	gcache=$(guest_cache_dir)
	write_init_env "$share" "$here/guest-server.sh" "$gcache"
	echo "export FGRAB_VM_IDLE=$(sh_quote "${FGRAB_VM_IDLE:-30}")" >>"$state/init.env"
	set_qemu_cmd "$initrd" "$share" "$gcache"
	console=$state/console-$$.log
	# the last few VMs' consoles stay for a look after a failure
	find "$state" -maxdepth 1 -name 'console-*.log' -mmin +60 -delete 2>/dev/null || true
	echo "$$ $stamp" >"$state/server.tmp.$$"
	mv "$state/server.tmp.$$" "$state/server"
	log "$(date +%T) VM $$ booting $KVER for $share (accelerator TCG), console $console"
	# hang guard for the VM as a whole; jobs have their own
	timeout -k 10 "${FGRAB_VM_SERVER_TIMEOUT:-14400}" "${QEMU_CMD[@]}" </dev/null 2>&1 |
		console_filter >"$console"
	log "$(date +%T) VM $$ powered off (status ${PIPESTATUS[0]})"
	# only ours: a replacement may have been started already
	if [ "$(server_stamp "$state")" = "$stamp" ] && grep -q "^$$ " "$state/server" 2>/dev/null; then
		rm -f "$state/server"
	fi
}

cmd_stop() {
	[ $# -eq 1 ] || die "usage: vm.sh stop SHARE"
	[ -d "$1/.vm" ] || return 0
	stop_server "$(server_state "$(readlink -f "$1")")"
}
