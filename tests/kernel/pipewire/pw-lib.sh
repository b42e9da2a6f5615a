# shellcheck shell=bash disable=SC2034 # variables are used by the scenario
# Helpers of the pipewire group (scenarios/pipewire.sh), sourced after
# lib.sh: the daemons of a desktop session started by hand in the guest
# (no systemd there: the guest runs the root chrooted from its initramfs,
# guest-init.sh, as root), a writer that records what it wrote, and
# pipewiresrc reading the camera.  They use the scenario's DEV.
#
# What a desktop session has and the guest has not, and what stands in:
# - systemd-udevd: PipeWire's V4L2 monitor (spa/plugins/v4l2/v4l2-udev.c)
#   finds the nodes with libudev (udev_enumerate over sysfs) and hears of
#   new and removed ones from udevd's netlink group ("udev"); the names it
#   gives come from the udev database, which udevd fills from
#   60-persistent-v4l.rules (v4l_id: ID_V4L_PRODUCT, the card name, and
#   ID_V4L_CAPABILITIES).  Without udevd the camera is still found (seen
#   in the VM) but named "Unknown device", and nothing of a node that
#   comes or goes later is heard (the monitor listens to udevd's group
#   only).
# - the session bus: WirePlumber's support.dbus (wireplumber.conf) and
#   PipeWire's module-portal want one; without it both start anyway
#   (their logs say so) and the camera was listed and read the same.  A
#   session has it, so the group starts one (dbus-daemon --session).
# - XDG_RUNTIME_DIR (guest-stage2.sh: /run/user/0): where pipewire puts
#   its socket, pipewire-0, and dbus-daemon the bus's.

PW_OBJ=$KT_DIR/pipewire/pwobjects.py
PW_PIDS=()
PW_STARTS=0 # pipewiresrc starts, how many hit the start race, how many
PW_RACES=0  # of these crashed (pw_read)
PW_CRASHES=0
# The version of the PipeWire library the guest's programs link, from the
# daemon's own answer ("Linked with libpipewire 1.4.2")
PW_VERSION=$(pipewire --version 2>/dev/null | sed -n 's/^Linked with libpipewire \([0-9.]*\).*/\1/p')
# pw_race_fixed: PipeWire 1.6 and later have the fixes of the start race
# (pw_read), so a start is not tried again there
pw_race_fixed() {
	dpkg --compare-versions "${PW_VERSION:-0}" ge 1.6
}

# pw_bg NAME COMMAND...: COMMAND in the background, its output in
# $KT_LOGS/NAME.log; sets BG_PID and remembers it for pw_cleanup.
pw_bg() {
	local name=$1
	shift
	"$@" >"$KT_LOGS/$name.log" 2>&1 </dev/null &
	BG_PID=$!
	PW_PIDS+=("$BG_PID")
	info "started $* (pid $BG_PID)"
}

# pw_wait_socket PATH SECONDS PID: until PATH is a socket (0), or PID
# died or the time ran out (1).
pw_wait_socket() {
	local i
	for ((i = 0; i < $2 * 10; i++)); do
		[ -S "$1" ] && return 0
		kill -0 "$3" 2>/dev/null || return 1
		sleep 0.1
	done
	return 1
}

# pw_cleanup: stops what the group started (newest first) and removes the
# udev database, so that the next group in this VM meets no udev state
# (guest-server.sh empties /tmp and /run/user, not /run/udev).
pw_cleanup() {
	local i
	[ -z "${PW_WATCHDOG:-}" ] || kill -TERM "$PW_WATCHDOG" 2>/dev/null || true
	for ((i = ${#PW_PIDS[@]} - 1; i >= 0; i--)); do
		kill -TERM "${PW_PIDS[i]}" 2>/dev/null || true
	done
	for ((i = ${#PW_PIDS[@]} - 1; i >= 0; i--)); do
		wait_exit "${PW_PIDS[i]}" 5 || true
	done
	rm -rf /run/udev
}

# pw_procs: each user process (not a kernel thread) with its state, where
# it sleeps (wchan) and, when blocked in the kernel (D), its kernel stack.
pw_procs() {
	local d pid rest ppid st wchan
	for d in /proc/[0-9]*; do
		pid=${d#/proc/}
		read -r rest <"$d/stat" 2>/dev/null || continue
		rest=${rest##*) }
		st=${rest%% *}
		rest=${rest#* }
		ppid=${rest%% *}
		if [ "$ppid" = 2 ] || [ "$pid" = 2 ]; then continue; fi
		wchan=$(cat "$d/wchan" 2>/dev/null) || true
		printf '    | %s %s %s %s\n' "$pid" "$st" "${wchan:-?}" "$(tr '\0' ' ' <"$d/cmdline" 2>/dev/null | cut -c1-160)"
		[ "$st" != D ] || sed 's/^/    |     /' "$d/stack" 2>/dev/null || true
	done
}

# pw_watchdog SECONDS: if the group still runs after SECONDS (it takes
# under a minute), prints the processes (pw_procs) and the kernel's last
# messages (the VM's console shows only critical ones: loglevel=3), kills
# the group's children and then the group (exit 143: a failure), rather
# than waiting for the guest's hang guard.  pw_cleanup ends it.
pw_watchdog() {
	local main=$$
	(
		trap 'kill "$s" 2>/dev/null; exit 0' TERM
		sleep "$1" &
		s=$!
		wait "$s"
		printf '\nFAIL: the pipewire group still runs after %s s; its processes:\n' "$1"
		pw_procs
		echo "    kernel log:"
		dmesg 2>/dev/null | tail -n 40 | sed 's/^/    | /'
		for d in /proc/[0-9]*; do
			read -r rest <"$d/stat" 2>/dev/null || continue
			rest=${rest##*) }
			rest=${rest#* }
			[ "${rest%% *}" != "$main" ] || [ "${d#/proc/}" = "$BASHPID" ] || kill -KILL "${d#/proc/}" 2>/dev/null
		done
		kill -TERM "$main"
	) &
	PW_WATCHDOG=$!
}

# pw_udevd: systemd-udevd, then "udevadm trigger" for the video4linux
# nodes already there (what systemd-udev-trigger.service does at boot) and
# "udevadm settle".  systemd's tools refuse to act inside a chroot
# ("Running in chroot, ignoring request": running_in_chroot(), which
# compares / with PID 1's root) unless SYSTEMD_IGNORE_CHROOT is set.
pw_udevd() {
	local t0
	t0=$(now_ms)
	export SYSTEMD_IGNORE_CHROOT=1
	pw_bg udevd /usr/lib/systemd/systemd-udevd
	pw_wait_socket /run/udev/control 10 "$BG_PID" ||
		fatal "systemd-udevd did not start (no /run/udev/control)$(show_log "$KT_LOGS/udevd.log")"
	udevadm trigger --subsystem-match=video4linux --action=add
	udevadm settle --timeout=20 || fail "udevadm settle timed out"
	info "udevd up and settled in $(($(now_ms) - t0)) ms"
}

# pw_udev_prop NAME: NAME from the udev database of DEV ("" if absent).
pw_udev_prop() {
	local line
	while IFS= read -r line; do
		[[ $line == "$1="* ]] && {
			echo "${line#*=}"
			return 0
		}
	done < <(udevadm info -q property -n "$DEV" 2>/dev/null)
	echo ""
}

# pw_session: the session bus and pipewire, each waited for (its socket
# in XDG_RUNTIME_DIR); a daemon that does not come up ends the group.
pw_session() {
	local t0
	t0=$(now_ms)
	export DBUS_SESSION_BUS_ADDRESS="unix:path=$XDG_RUNTIME_DIR/bus"
	pw_bg dbus dbus-daemon --session --nofork --address="$DBUS_SESSION_BUS_ADDRESS"
	pw_wait_socket "$XDG_RUNTIME_DIR/bus" 10 "$BG_PID" ||
		fatal "dbus-daemon --session did not start$(show_log "$KT_LOGS/dbus.log")"
	pw_bg pipewire pipewire
	pw_wait_socket "$XDG_RUNTIME_DIR/pipewire-0" 10 "$BG_PID" ||
		fatal "pipewire did not start (no $XDG_RUNTIME_DIR/pipewire-0)$(show_log "$KT_LOGS/pipewire.log")"
	pass "session bus and pipewire up (sockets in $XDG_RUNTIME_DIR after $(($(now_ms) - t0)) ms)"
}

# pw_wireplumber TAG: (re)starts wireplumber (the default profile, "main",
# as the user unit runs it); sets WP_PID.
pw_wireplumber() {
	if [ -n "${WP_PID:-}" ]; then
		kill -TERM "$WP_PID" 2>/dev/null || true
		wait_exit "$WP_PID" 10 || fail "wireplumber did not end on SIGTERM"
	fi
	pw_bg "wireplumber-$1" wireplumber
	WP_PID=$BG_PID
}

# pw_objects WHAT SECONDS: waits for WHAT (pwobjects.py wait: device,
# source, no-source); sets PW_MS (how long), PW_LISTING, and from the
# listing PW_DEV_DESC, PW_NODE_NAME, PW_NODE_SERIAL, PW_NODE_DESC,
# PW_NODE_NICK ("" when absent).  Returns pwobjects.py's status.
pw_objects() {
	local out st=0 line kind id serial class name desc nick
	out=$("$KT_PYTHON" "$PW_OBJ" wait "$DEV" "$1" "$2") || st=$?
	PW_MS=-1 PW_LISTING="" PW_DEV_DESC="" PW_NODE_NAME="" PW_NODE_SERIAL=""
	PW_NODE_DESC="" PW_NODE_NICK=""
	while IFS= read -r line; do
		if [[ $line =~ ^after\ ([0-9]+)\ ms$ ]]; then
			PW_MS=${BASH_REMATCH[1]}
			continue
		fi
		PW_LISTING+="$line"$'\n'
		IFS=$'\t' read -r kind id serial class name desc nick <<<"$line"
		case $kind/$class in
		device/Video/Device) PW_DEV_DESC=$desc ;;
		node/Video/Source) PW_NODE_NAME=$name PW_NODE_SERIAL=$serial PW_NODE_DESC=$desc PW_NODE_NICK=$nick ;;
		esac
	done <<<"$out"
	return "$st"
}

pw_show_listing() {
	[ -n "$PW_LISTING" ] || PW_LISTING="(nothing on $DEV)"$'\n'
	printf '%s' "$PW_LISTING" | sed 's/^/    | /'
}

# pw_writer TAG FORMAT W H: fgrabsink writes videotestsrc's SMPTE bars,
# live at 30 fps; a tee gives each frame also to checksumsink, which prints
# its md5 (the frames differ: the bars' noise square changes every frame).
# Its output (the md5s, 30 lines a second) and its log go to the guest's
# tmpfs, not to the results share (9p): a file read again and again while
# it grows there took seconds a read under TCG, and the log's lines came
# cut by the output's when both went to one file; pw_writer_stop copies
# them to the logs.  Returns once the node announces capture alone with
# exclusive_caps=1 (LOOP_EXCLUSIVE, the scenario's), else once fgrabsink
# configured the node (its "configured" line, after VIDIOC_STREAMON); sets
# WRITER_PID, WRITER_LOG (stderr) and WRITER_OUT (stdout).
pw_writer() {
	local i
	WRITER_LOG=$KT_WORK/$1-writer.log WRITER_OUT=$KT_WORK/$1-writer.out
	set -- videotestsrc pattern=smpte is-live=true ! "$(cam_caps "$2" "$3" "$4")" ! tee name=t \
		! queue ! fgrabsink device="$DEV" t. ! queue ! checksumsink hash=md5
	GST_DEBUG=fgrabsink:4 gst-launch-1.0 -v -e "$@" >"$WRITER_OUT" 2>"$WRITER_LOG" </dev/null &
	WRITER_PID=$!
	info "started gst-launch-1.0 -e $* (pid $WRITER_PID)"
	if [ "$LOOP_EXCLUSIVE" != 1 ]; then
		wait_for_log "$WRITER_LOG" 'gst_fgrab_sink_configure:.* configured ' 30
		return
	fi
	for ((i = 0; i < 300; i++)); do
		[ "$(pw_node_caps)" != capture ] || return 0
		kill -0 "$WRITER_PID" 2>/dev/null || return 1
		sleep 0.1
	done
	return 1
}

# pw_writer_stop TAG: lib.sh's cam_stop_writer (SIGINT, exit 0, no error),
# then the writer's files to the logs.
pw_writer_stop() {
	cam_stop_writer "$1"
	cp "$WRITER_LOG" "$WRITER_OUT" "$KT_LOGS/" 2>/dev/null || true
}

# pw_node_caps: lib.sh's node_caps for DEV, its v4l2-ctl under a time
# limit: "capture", "output", "capture+output", "none" or "unknown".
pw_node_caps() {
	local line hex="" c=""
	while IFS= read -r line; do
		[[ $line =~ Device\ Caps\ *:\ *0x([0-9a-fA-F]+) ]] && hex=${BASH_REMATCH[1]}
	done < <(timeout 10 v4l2-ctl -d "$DEV" --info 2>&1)
	[ -n "$hex" ] || {
		echo unknown
		return 0
	}
	(((16#$hex & 0x1) != 0)) && c=capture
	(((16#$hex & 0x2) != 0)) && c=${c:+$c+}output
	echo "${c:-none}"
}

# pw_md5s LOG: the md5s checksumsink printed ("H:MM:SS.NNNNNNNNN MD5"
# lines), one a line.
pw_md5s() {
	local line re='^[0-9]+:[0-9]{2}:[0-9]{2}\.[0-9]{9} ([0-9a-f]{32})$'
	while IFS= read -r line; do
		[[ $line =~ $re ]] && echo "${BASH_REMATCH[1]}"
	done <"$1"
	return 0
}

# pw_read TAG TARGET FRAMES: pipewiresrc target-object=TARGET (a node
# name or object.serial) takes FRAMES buffers (video/x-raw: frames in
# memory) into checksumsink; sets READ_RC, READ_N, READ_SUMS (the md5s in
# order), READ_CAPS (what pipewiresrc negotiated) and READ_LOG.
#
# PipeWire 1.4.2's pipewiresrc (Debian 13) can stop at its start, with
# "stream error: unhandled format" and "Internal data stream error"
# (reason not-negotiated or error), and once it crashed (SIGSEGV) there.
# gstpipewiresrc.c deactivates its stream at the end of READY->PAUSED and
# activates it again at PAUSED->PLAYING (gst_pipewire_src_change_state).
# When the V4L2 node, which drives the graph, ran a cycle at the camera's
# rate (1/30) before the deactivation, the graph recalculation at the
# activation finds it idle and switches it back to the clock rate
# (context.c pw_context_recalc_graph: "state:idle new rate:30/(30)->48000"),
# which suspends the driver and its followers (reconfigure_driver):
# pipewiresrc's format is cleared, and the format negotiated again is one
# it no longer takes (its possible caps were dropped after the first
# negotiation: "unhandled format"), or create() runs first and answers
# not-negotiated.  That sequence is in the daemon's log with
# PIPEWIRE_DEBUG=pw.context:I.  In the VM it hit 2 of 20 starts a few
# seconds apart, 6 of 30 under a second apart, and 5 of 33 first starts
# in the group.  Fixed upstream in PipeWire 1.6: commit 3c62d29a
# ("gstpipewiresrc: Fix re-linking") keeps the possible caps, so a format
# negotiated again is taken, and 165bd7b2 ("pipewiresrc: fix race when
# node suspended moving from PAUSED to PLAYING") waits for it before
# PLAYING.  Before 1.6 (Debian 13's 1.4.2) such a start is tried again,
# seven times at most, and counted (PW_RACES, PW_CRASHES); any other
# failure is not retried (pw_start_race).  On 1.6 and later (forky's)
# nothing is retried: one start must do.  gst-launch runs with --no-fault, so that a crash ends
# it at once (exit 139) rather than spinning for a debugger.
pw_start_race() {
	[ "$READ_RC" -ne 0 ] && [ "$READ_N" -le 1 ] || return 1
	# the answer while no writer runs is no race
	! grep -q 'no more input formats' "$1" || return 1
	[ "$READ_RC" != 139 ] || return 0
	grep -q 'unhandled format\|reason not-negotiated' "$1"
}

pw_read() {
	local tag=$1 target=$2 n=$3 try tries=8 re='GstPipeWireSrc:[^.]*\.GstPad:src: caps = (.*)$'
	! pw_race_fixed || tries=1
	for try in $(seq "$tries"); do
		PW_STARTS=$((PW_STARTS + 1))
		gst "$tag-read-$try" 40 --no-fault pipewiresrc target-object="$target" num-buffers="$n" \
			! video/x-raw ! checksumsink hash=md5
		READ_RC=$KT_RC READ_LOG=$KT_LOG
		mapfile -t READ_SUMS < <(pw_md5s "$READ_LOG")
		READ_N=${#READ_SUMS[@]}
		if [ "$try" = "$tries" ] || ! pw_start_race "$READ_LOG"; then break; fi
		PW_RACES=$((PW_RACES + 1))
		[ "$READ_RC" != 139 ] || PW_CRASHES=$((PW_CRASHES + 1))
		info "$tag: pipewiresrc stopped at its start (exit $READ_RC, $READ_N frames: $(grep -m1 -o 'unhandled format\|reason [a-z-]*\|Caught SIGSEGV' "$READ_LOG" || echo crashed)): the start race of PipeWire $PW_VERSION; again"
	done
	READ_CAPS=$(log_match "$re" "$READ_LOG")
	info "$tag: pipewiresrc -> exit $READ_RC (attempt $try), $READ_N frames, caps $READ_CAPS"
}

# pw_expect_read TAG FRAMES FORMAT W H: the last pw_read ended by itself
# with FRAMES frames and negotiated FORMAT WxH at 30/1.
pw_expect_read() {
	expect_eq "$1: pipewiresrc exit status" "$READ_RC" 0
	expect_eq "$1: frames read" "$READ_N" "$2"
	expect_eq "$1: caps pipewiresrc negotiated" \
		"$(caps_field "$READ_CAPS" format) $(caps_field "$READ_CAPS" width)x$(caps_field "$READ_CAPS" height) $(caps_field "$READ_CAPS" framerate)" \
		"$3 ${4}x$5 30/1"
	if [ "$READ_RC" -ne 0 ] || [ "$READ_N" -ne "$2" ]; then show_log "$READ_LOG"; fi
}

# pw_expect_equal TAG: after the writer stopped (its md5s complete), every
# frame pipewiresrc read is one the writer wrote, byte for byte (md5), in
# the order written; says how many written frames fell between.
pw_expect_equal() {
	local -A pos=()
	local m last=-1 missing=0 order=0 written=0 p first=
	while IFS= read -r m; do
		[ -n "${pos[$m]:-}" ] || pos[$m]=$written
		written=$((written + 1))
	done < <(pw_md5s "$WRITER_OUT")
	expect_eq "$1: the frames written are all different (md5)" "${#pos[@]}" "$written"
	for m in "${READ_SUMS[@]}"; do
		p=${pos[$m]:-}
		if [ -z "$p" ]; then
			missing=$((missing + 1))
		elif [ "$p" -le "$last" ]; then
			order=$((order + 1))
		else
			last=$p
			first=${first:-$p}
		fi
	done
	if [ "$READ_N" -gt 0 ] && [ "$missing" = 0 ] && [ "$order" = 0 ]; then
		pass "$1: each of the $READ_N frames read is a frame written, byte-identical (md5), in order (written frames $((first + 1))-$((last + 1)) of $written)"
	else
		fail "$1: of $READ_N frames read, $missing are no frame written and $order out of order"
	fi
}
