#!/bin/bash
# fgrabsink into v4l2loopback (/dev/video10) with read() readers: while
# fgrabsink writes 150 frames of a live 30 fps videotestsrc sequence in which
# every frame differs (pattern=ball; checked), a plain blocking reader (dd, the
# peer baseline) and fgrabsrc capture at the same time. Each capture must be a
# contiguous, in-order run of the sent frames up to the last one (only frames
# sent before the reader started may be missing; a gap, repeat, reorder or
# unknown frame fails), and fgrabsrc must keep receiving while the writer runs.
# dd passing while fgrabsrc fails puts the fault on the reader, not the writer.
#@vivid: none
#@v4l2loopback: devices=1 video_nr=10 card_label=loop
# shellcheck source=../lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"

DEV=/dev/video10
N=150       # frames of the read() run (5 s at 30 fps: time for the readers to start)
RUN_MIN=30  # fewest frames a read() reader must capture
W=320 H=240
CAPS="video/x-raw,format=YUY2,width=$W,height=$H,framerate=30/1"
FRAME_BYTES=$((W * H * 2))
PATTERN=ball
export GST_DEBUG_NO_COLOR=1

require_fgrabsink() {
	if ! gst-inspect-1.0 fgrabsink >"$KT_LOGS/inspect-fgrabsink.log" 2>&1; then
		show_log "$KT_LOGS/inspect-fgrabsink.log" 10
		fatal "element fgrabsink not found (GST_PLUGIN_PATH=${GST_PLUGIN_PATH:-unset}); build the plugin first"
	fi
	local line
	while IFS= read -r line; do
		[[ $line =~ ^\ *Filename\ +(.*)$ ]] && info "fgrabsink from ${BASH_REMATCH[1]}"
	done <"$KT_LOGS/inspect-fgrabsink.log"
	return 0
}

# frames_written LOG: the count fgrabsink logs when it stops (-1 if absent;
# needs GST_DEBUG=fgrabsink:4)
frames_written() {
	local line re='fgrabsink.*gst_fgrab_sink_stop.* ([0-9]+) frames written'
	while IFS= read -r line; do
		[[ $line =~ $re ]] && {
			echo "${BASH_REMATCH[1]}"
			return 0
		}
	done <"$1"
	echo -1
}

# start_writer TAG FRAMES [FGRABSINK-PROPS...]: fgrabsink writes FRAMES of the
# live sequence in the background (gst-launch -e: SIGINT ends it with EOS);
# returns once it configured the device (sets WRITER_PID and WRITER_LOG), ends
# the scenario if it does not within 30 s.
start_writer() {
	local tag=$1 n=$2
	shift 2
	GST_DEBUG=fgrabsink:4 gst_bg "$tag-writer" -e videotestsrc pattern=$PATTERN num-buffers="$n" is-live=true \
		! "$CAPS" ! fgrabsink device=$DEV "$@"
	WRITER_PID=$KT_PID WRITER_LOG=$KT_LOG
	if ! wait_for_log "$WRITER_LOG" 'gst_fgrab_sink_configure.*configured video/x-raw' 30; then
		wait_exit "$WRITER_PID" 5 || true
		show_log "$WRITER_LOG"
		fatal "$tag: fgrabsink did not configure $DEV within 30 s"
	fi
	info "fgrabsink configured $DEV: $(grep -o 'payload [0-9]* bytes (driver.s sizeimage [0-9]*)' "$WRITER_LOG" | head -n1)"
}

# finish_writer TAG: waits for the writer; checks it ended with EOS, exit 0.
finish_writer() {
	local tag=$1
	wait_exit "$WRITER_PID" 60 || true
	WRITER_RC=$KT_RC
	expect_eq "$tag: fgrabsink pipeline exit status" "$WRITER_RC" 0
	expect_log "$tag: fgrabsink pipeline reached EOS" 'Got EOS from element' "$WRITER_LOG"
	expect_no_log "$tag: no error from the writer" '^ERROR: ' "$WRITER_LOG"
	WRITER_FRAMES=$(frames_written "$WRITER_LOG")
	info "fgrabsink wrote $WRITER_FRAMES frames"
}

# stop_reader PID GRACE [SIGNAL]: lets a reader end by itself within GRACE
# seconds, else sends SIGNAL (default INT: FFmpeg and gst-launch close their
# files cleanly) and waits 10 s more; sets KT_RC and READER_INTERRUPTED (1 if it
# needed the signal).
stop_reader() {
	local i
	READER_INTERRUPTED=0
	for ((i = 0; i < $2 * 10; i++)); do
		kill -0 "$1" 2>/dev/null || break
		sleep 0.1
	done
	if kill -0 "$1" 2>/dev/null; then
		READER_INTERRUPTED=1
		kill -"${3:-INT}" "$1" 2>/dev/null || true
	fi
	wait_exit "$1" 10
}

# md5s FILE: "md5 size" of each FRAME_BYTES-sized frame of a raw file ("-": stdin)
md5s() {
	"$KT_PYTHON" -c '
import hashlib, sys
n = int(sys.argv[1])
f = sys.stdin.buffer if sys.argv[2] == "-" else open(sys.argv[2], "rb")
while True:
    b = f.read(n)
    if not b:
        break
    print(hashlib.md5(b).hexdigest(), len(b))
' "$FRAME_BYTES" "$1"
}

# idx_of MD5: the index of the sent frame with that md5 (-1 if none)
idx_of() { echo "${REF_IDX[$1]:--1}"; }

# check_run TAG LAST MD5...: the md5s are sent frames FIRST..LAST, each once, in
# order, without a gap (FIRST is free: frames before the reader started).
check_run() {
	local tag=$1 last=$2 first="" prev=-1 problem="" i=0 k m
	shift 2
	if [ $# -eq 0 ]; then
		fail "$tag: nothing captured to compare"
		return 0
	fi
	for m in "$@"; do
		k=$(idx_of "$m")
		if [ "$k" -lt 0 ]; then
			problem="captured frame #$i (md5 $m) is none of the sent frames"
		elif [ "$prev" -ge 0 ] && [ "$k" -eq "$prev" ]; then
			problem="captured frame #$i repeats sent frame $k"
		elif [ "$prev" -ge 0 ] && [ "$k" -lt "$prev" ]; then
			problem="captured frame #$i is sent frame $k, after sent frame $prev (reordered)"
		elif [ "$prev" -ge 0 ] && [ "$k" -ne $((prev + 1)) ]; then
			problem="captured frame #$i is sent frame $k right after sent frame $prev: frames $((prev + 1))..$((k - 1)) lost"
		fi
		[ -z "$problem" ] || break
		[ -n "$first" ] || first=$k
		prev=$k
		i=$((i + 1))
	done
	if [ -n "$problem" ]; then
		fail "$tag: $problem"
		return 0
	fi
	info "$tag: frames sent before its first frame (allowed to be missing): $first"
	pass "$tag: captured frames are sent frames $first..$prev, contiguous and in order"
	expect_eq "$tag: the run ends with the last frame sent" "$prev" "$last"
}

require_fgrabsink
info "v4l2loopback: $(v4l2-ctl -d $DEV --info | grep -m1 'Card type' | tr -s '\t ' ' ')"
[ -x "$KT_PYTHON" ] || fatal "$KT_PYTHON missing"

section "reference: md5 of each of the $N frames sent ($PATTERN, ${W}x$H YUY2)"
set +e
gst-launch-1.0 -q videotestsrc pattern=$PATTERN num-buffers=$N ! "$CAPS" ! fdsink fd=1 \
	2>"$KT_LOGS/reference.log" | md5s - >"$KT_WORK/ref.md5"
rc=("${PIPESTATUS[@]}")
set -e
if [ "${rc[0]}" -ne 0 ] || [ "${rc[1]}" -ne 0 ]; then
	show_log "$KT_LOGS/reference.log"
	fatal "cannot compute the reference md5s (gst-launch exit ${rc[0]}, md5 exit ${rc[1]})"
fi
REF_LIST=() ref_bad=0
while read -r m sz; do
	REF_LIST+=("$m")
	[ "$sz" = "$FRAME_BYTES" ] || ref_bad=$((ref_bad + 1))
done <"$KT_WORK/ref.md5"
expect_eq "reference: frames rendered" "${#REF_LIST[@]}" "$N"
expect_eq "reference: frames not of $FRAME_BYTES bytes" "$ref_bad" 0
declare -A REF_IDX=()
for i in "${!REF_LIST[@]}"; do REF_IDX[${REF_LIST[$i]}]=$i; done
expect_eq "reference: every frame differs (distinct md5s)" "${#REF_IDX[@]}" "$N"

section "fgrabsink -> v4l2loopback -> read() readers (dd and fgrabsrc): nothing lost, in order"
# max-lateness=-1: under TCG basesink would otherwise drop late frames before
# they reach the device, which is not what this checks; every frame is written.
start_writer read $N max-lateness=-1
dddir=$(fresh_dir dd)
timeout -k 2 60 dd if=$DEV of="$dddir/dd.raw" bs=$FRAME_BYTES count=$N status=none 2>"$KT_LOGS/dd-reader.log" &
dd_pid=$!
info "started dd if=$DEV bs=$FRAME_BYTES (blocking read(), pid $dd_pid)"
capdir=$(fresh_dir capture)
GST_DEBUG=fgrabdevice:6,fgrabsrc:4 gst_bg fgrabsrc-reader fgrabsrc device=$DEV ! "video/x-raw,format=YUY2,width=$W,height=$H" \
	! multifilesink sync=false location="$capdir/%05d.yuv"
reader=$KT_PID reader_log=$KT_LOG
# Progress of both readers while the writer runs, to tell a stall from a late
# start: fgrabsrc must get new frames in the last second the writer ran in,
# like dd does.
dd_n=() src_n=()
for _ in 1 2 3 4; do
	sleep 1
	kill -0 "$WRITER_PID" 2>/dev/null || break
	shopt -s nullglob
	c=("$capdir"/*)
	shopt -u nullglob
	dd_n+=($(($(stat -c %s "$dddir/dd.raw" 2>/dev/null || echo 0) / FRAME_BYTES)))
	src_n+=("${#c[@]}")
	info "writer running: dd has ${dd_n[-1]} frames, fgrabsrc ${src_n[-1]}"
done
if [ "${#src_n[@]}" -ge 2 ]; then
	src_new=$((src_n[-1] - src_n[-2])) dd_new=$((dd_n[-1] - dd_n[-2]))
	if [ "$src_new" -gt 0 ]; then
		pass "fgrabsrc keeps receiving while the writer runs ($src_new new frames in 1 s; dd $dd_new)"
	else
		fail "fgrabsrc stalled: no new frame in 1 s while fgrabsink wrote and dd received $dd_new (stuck after ${src_n[-1]} frames)"
		# Where the reader sleeps, for the report (syscall 7 = poll, 271 = ppoll, 0 = read).
		for t in /proc/"$reader"/task/*; do
			info "  reader thread $(basename "$t") ($(cat "$t/comm" 2>/dev/null)): syscall $(cut -d' ' -f1 "$t/syscall" 2>/dev/null), wchan $(cat "$t/wchan" 2>/dev/null)"
		done
	fi
else
	fail "fgrabsrc: the writer ended before its progress could be sampled twice"
fi
finish_writer read
expect_eq "read: fgrabsink wrote every frame" "$WRITER_FRAMES" "$N"
# The last frame is read within a frame period; give TCG ample time, then stop.
# (dd: SIGTERM, as a background job of this shell it ignores SIGINT; what it
# read is in its file already)
stop_reader "$dd_pid" 3 TERM || true
stop_reader "$reader" 1 || fail "fgrabsrc: gst-launch did not end 10 s after SIGINT"
if [ "$READER_INTERRUPTED" -eq 1 ]; then
	info "fgrabsrc was still waiting for frames after the writer ended; interrupted it (exit $KT_RC)"
else
	info "fgrabsrc ended by itself after the writer left (exit $KT_RC)"
fi
expect_no_log "fgrabsrc: no error from the reader" '^ERROR: ' "$reader_log"

dd_list=() dd_bad=0
while read -r m sz; do
	dd_list+=("$m")
	[ "$sz" = "$FRAME_BYTES" ] || dd_bad=$((dd_bad + 1))
done < <(md5s "$dddir/dd.raw")
rm -rf "$dddir"
info "dd (peer baseline) captured ${#dd_list[@]} frames"
expect_ge "dd: frames captured" "${#dd_list[@]}" "$RUN_MIN"
expect_eq "dd: frames not of $FRAME_BYTES bytes" "$dd_bad" 0
check_run dd $((N - 1)) "${dd_list[@]}"

frames "$capdir"
rm -rf "$capdir"
info "fgrabsrc captured $FR_N frames (sizes: ${FR_SIZES:-none})"
expect_ge "fgrabsrc: frames captured" "$FR_N" "$RUN_MIN"
[ "$FR_N" -eq 0 ] || expect_eq "fgrabsrc: captured frame size" "$FR_SIZES" "$FRAME_BYTES"
read -r -a cap <<<"$FR_LIST"
check_run fgrabsrc $((N - 1)) "${cap[@]}"

kt_finish
