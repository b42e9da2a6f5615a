#!/bin/bash
# fgrabsrc when the device goes away and comes back:
#  - v4l2loopback's writer vanishes and a new one comes back: fgrabsrc, started
#    while the first writer runs, keeps
#    waiting without an error while there is no writer, then captures the new
#    writer's frames; every frame captured is a whole frame of one of the two
#    writers (solid red, then solid blue), red ones before blue ones.
#  - vivid's node unplugged ("disconnect") while an application holds
#    fgrabsrc in READY, then removed and re-added (src-replug.py): PLAYING
#    fails with the element's error, NULL is prompt, no fd is left open, and
#    the same element captures again once the node is back.
#@vivid: n_devs=1 node_types=0x101
#@v4l2loopback: devices=1 video_nr=10 card_label=loop
# shellcheck source=../lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"

DEV=/dev/video10
W=320 H=240
CAPS="video/x-raw,format=YUY2,width=$W,height=$H,framerate=30/1"
FRAME_BYTES=$((W * H * 2))
export GST_DEBUG_NO_COLOR=1

require_element fgrabsrc
require_element fgrabsink
[ -x "$KT_PYTHON" ] || fatal "$KT_PYTHON missing"

# count_yuv DIR: frames multifilesink has finished in DIR (it writes each to
# a temporary name first, so frames() can only run once the reader is done)
count_yuv() {
	local f
	shopt -s nullglob
	f=("$1"/*.yuv)
	shopt -u nullglob
	echo "${#f[@]}"
}

# md5 of one frame of a solid pattern
pattern_md5() {
	gst-launch-1.0 -q videotestsrc pattern="$1" num-buffers=1 ! "$CAPS" ! fdsink fd=1 2>/dev/null |
		md5sum | cut -d' ' -f1
}

# Each pipeline's debug log goes to a file of its own (TAG-debug.log): on the
# console output of gst-launch -v a debug line could be cut by a caps line
# written at the same time, and a pattern looked for there be missed.
# writer TAG PATTERN: 60 frames (2 s) of PATTERN through fgrabsink, to the end
writer() {
	GST_DEBUG=fgrabsink:4 GST_DEBUG_FILE=$KT_LOGS/$1-debug.log \
		gst "$1" 60 videotestsrc pattern="$2" num-buffers=60 is-live=true \
		! "$CAPS" ! fgrabsink device=$DEV max-lateness=-1
	expect_eq "$1: fgrabsink exit status" "$KT_RC" 0
	expect_eq "$1: frames written" "$(frames_written "$KT_LOGS/$1-debug.log")" 60
}

section "v4l2loopback: the writer vanishes, a new writer comes back"
RED=$(pattern_md5 red)
BLUE=$(pattern_md5 blue)
info "md5 of a red frame $RED, of a blue frame $BLUE"
# The first writer sets the format; the reader starts once it has.
# Up to 30 s of red; the writer is made to leave (SIGINT: EOS) once the
# reader has captured from it.
GST_DEBUG=fgrabsink:4 GST_DEBUG_FILE=$KT_LOGS/writer-red-debug.log \
	gst_bg writer-red -e videotestsrc pattern=red num-buffers=900 is-live=true \
	! "$CAPS" ! fgrabsink device=$DEV max-lateness=-1
wpid=$KT_PID wlog=$KT_LOGS/writer-red-debug.log
wait_for_log "$wlog" 'configured video/x-raw' 30 || {
	show_log "$KT_LOG"
	show_log "$wlog"
	fatal "the first writer did not configure $DEV"
}
# a reader finds a format once the writer's first frame is in
for _ in $(seq 1 300); do
	v4l2-ctl -d $DEV --list-formats 2>/dev/null | grep -q "'YUYV'" && break
	sleep 0.1
done
capdir=$(fresh_dir capture)
GST_DEBUG=fgrabsrc:4 GST_DEBUG_FILE=$KT_LOGS/reader-debug.log \
	gst_bg reader -e fgrabsrc device=$DEV ! "video/x-raw,width=$W,height=$H" \
	! multifilesink sync=false location="$capdir/%05d.yuv"
reader=$KT_PID rlog=$KT_LOG
for _ in $(seq 1 400); do
	[ "$(count_yuv "$capdir")" -lt 10 ] || break
	kill -0 "$reader" 2>/dev/null || break
	sleep 0.1
done
expect_ge "frames captured from the first writer while it runs" "$(count_yuv "$capdir")" 10
kill -INT "$wpid" 2>/dev/null || true
wait_exit "$wpid" 30 || true
expect_eq "writer-red: fgrabsink exit status after SIGINT (EOS)" "$KT_RC" 0
info "the reader has $(count_yuv "$capdir") frames when the first writer is gone"
sleep 3
if kill -0 "$reader" 2>/dev/null; then
	pass "the reader waits while no writer is there (3 s)"
else
	fail "the reader ended while no writer was there"
fi
expect_no_log "no error while no writer is there" '^ERROR: ' "$rlog"
writer writer-blue blue
sleep 2
stop_reader "$reader" 0 || fail "the reader did not end 10 s after SIGINT"
expect_eq "reader: exit status after SIGINT (EOS)" "$KT_RC" 0
expect_no_log "reader: no error" '^ERROR: ' "$rlog"

frames "$capdir"
info "captured $FR_N frames (sizes ${FR_SIZES:-none})"
n_r=0 n_b=0 other=0 order_bad=0 seen_blue=0
for m in $FR_LIST; do
	if [ "$m" = "$RED" ]; then
		n_r=$((n_r + 1))
		[ "$seen_blue" -eq 0 ] || order_bad=$((order_bad + 1))
	elif [ "$m" = "$BLUE" ]; then
		n_b=$((n_b + 1)) seen_blue=1
	else
		other=$((other + 1))
	fi
done
expect_ge "frames of the first writer" "$n_r" 10
expect_ge "frames of the writer that came back" "$n_b" 10
expect_eq "frames that are neither (torn or foreign)" "$other" 0
expect_eq "red frames after blue ones" "$order_bad" 0
[ "$FR_N" -eq 0 ] || expect_eq "captured frame size" "$FR_SIZES" "$FRAME_BYTES"

section "vivid: node unplugged while in READY, removed and re-added"
v4l2-ctl -d /dev/video0 -i 0 >/dev/null
set +e
timeout -k 5 240 "$KT_PYTHON" "$(dirname "${BASH_SOURCE[0]}")/src-replug.py" \
	"n_devs=1 node_types=0x101" >"$KT_LOGS/replug.log" 2>&1
rc=$?
set -e
while IFS= read -r line; do
	case $line in
	"  PASS: "*) pass "replug: ${line#  PASS: }" ;;
	"  FAIL: "*) fail "replug: ${line#  FAIL: }" ;;
	"    "*) info "${line#    }" ;;
	esac
done <"$KT_LOGS/replug.log"
if [ "$rc" -ne 124 ] && [ "$rc" -ne 137 ]; then
	pass "replug: the application ended by itself (exit $rc)"
else
	fail "replug: the application hung (killed by the timeout)"
fi
[ "$rc" -eq 0 ] || show_log "$KT_LOGS/replug.log" 40

kt_finish
