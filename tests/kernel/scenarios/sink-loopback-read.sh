#!/bin/bash
# fgrabsink into v4l2loopback (/dev/video10) with read() readers: while
# fgrabsink writes a live 30 fps videotestsrc sequence in which every frame
# differs (pattern=ball; checked), a plain blocking reader (dd, the peer
# baseline) and fgrabsrc capture at the same time. The writer goes on until
# both readers have RUN_MIN frames (at most N frames), then is ended with EOS.
# Each capture must be a contiguous, in-order run of the sent frames up to the
# last one sent (frames sent before the reader started may be missing, and its
# first CATCHUP frames are not judged: a reader that starts behind the writer
# may be handed a ring slot v4l2loopback is overwriting; a gap, repeat,
# reorder or unknown frame after that fails), and fgrabsrc must keep
# receiving while the writer runs.
# dd passing while fgrabsrc fails puts the fault on the reader, not the writer.
#@vivid: none
#@v4l2loopback: devices=1 video_nr=10 card_label=loop
# shellcheck source=../lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"

DEV=/dev/video10
N=600       # most frames the writer sends (20 s at 30 fps)
RUN_MIN=30  # fewest frames a read() reader must capture
CATCHUP=2   # first frames of a capture that are not judged
W=320 H=240
# shellcheck disable=SC2034 # used by loopback-sink.sh
CAPS="video/x-raw,format=YUY2,width=$W,height=$H,framerate=30/1"
FRAME_BYTES=$((W * H * 2))
# shellcheck disable=SC2034 # used by loopback-sink.sh
PATTERN=ball
export GST_DEBUG_NO_COLOR=1

# shellcheck source=../loopback-sink.sh
source "$(dirname "${BASH_SOURCE[0]}")/../loopback-sink.sh"

# check_run TAG LAST MD5...: the md5s are sent frames FIRST..LAST, each once, in
# order, without a gap (FIRST is free: frames before the reader started).
check_run() {
	local tag=$1 last=$2 first="" prev=-1 problem="" i=0 k m
	shift 2
	[ $# -le "$CATCHUP" ] || shift "$CATCHUP"
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

require_element fgrabsink
info "v4l2loopback: $(v4l2-ctl -d $DEV --info | grep -m1 'Card type' | tr -s '\t ' ' ')"
[ -x "$KT_PYTHON" ] || fatal "$KT_PYTHON missing"

reference "$N"

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
# Wait until both readers have their RUN_MIN frames (a loaded host starts
# them late), then sample their progress while the writer still runs, to
# tell a stall from a late start: fgrabsrc must get new frames in that
# second, like dd does.
count_captured() {
	local c
	shopt -s nullglob
	c=("$capdir"/*)
	shopt -u nullglob
	DD_N=$(($(stat -c %s "$dddir/dd.raw" 2>/dev/null || echo 0) / FRAME_BYTES))
	SRC_N=${#c[@]}
}
for _ in $(seq 1 600); do
	kill -0 "$WRITER_PID" 2>/dev/null || break
	count_captured
	[ "$DD_N" -lt $((RUN_MIN + CATCHUP)) ] || [ "$SRC_N" -lt $((RUN_MIN + CATCHUP)) ] || break
	sleep 0.1
done
count_captured
dd_first=$DD_N src_first=$SRC_N
sleep 1
count_captured
info "writer running: dd has $DD_N frames, fgrabsrc $SRC_N"
if ! kill -0 "$WRITER_PID" 2>/dev/null; then
	fail "fgrabsrc: the writer ended (after $N frames) before the readers had $RUN_MIN frames each"
elif [ "$SRC_N" -gt "$src_first" ]; then
	pass "fgrabsrc keeps receiving while the writer runs ($((SRC_N - src_first)) new frames in 1 s; dd $((DD_N - dd_first)))"
else
	fail "fgrabsrc stalled: no new frame in 1 s while fgrabsink wrote and dd received $((DD_N - dd_first)) (stuck after $SRC_N frames)"
	# Where the reader sleeps, for the report (syscall 7 = poll, 271 = ppoll, 0 = read).
	for t in /proc/"$reader"/task/*; do
		info "  reader thread $(basename "$t") ($(cat "$t/comm" 2>/dev/null)): syscall $(cut -d' ' -f1 "$t/syscall" 2>/dev/null), wchan $(cat "$t/wchan" 2>/dev/null)"
	done
fi
kill -INT "$WRITER_PID" 2>/dev/null || true
finish_writer read
expect_ge "read: fgrabsink frames written" "$WRITER_FRAMES" $((RUN_MIN + CATCHUP))
last=$((WRITER_FRAMES - 1))
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
check_run dd "$last" "${dd_list[@]}"

frames "$capdir"
rm -rf "$capdir"
info "fgrabsrc captured $FR_N frames (sizes: ${FR_SIZES:-none})"
expect_ge "fgrabsrc: frames captured" "$FR_N" "$RUN_MIN"
[ "$FR_N" -eq 0 ] || expect_eq "fgrabsrc: captured frame size" "$FR_SIZES" "$FRAME_BYTES"
read -r -a cap <<<"$FR_LIST"
check_run fgrabsrc "$last" "${cap[@]}"

kt_finish
