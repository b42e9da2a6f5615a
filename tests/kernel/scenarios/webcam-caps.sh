#!/bin/bash
# Virtual webcam (v4l2loopback exclusive_caps=1): a consumer that comes
# before the writer, and a writer that changes its caps mid-stream.
#  - consumer first: while no writer streams the node announces OUTPUT alone
#    and lists no capture format, so FFmpeg and v4l2src started then fail at
#    once (asserted: exit status and their message); a consumer that waits
#    until the node announces CAPTURE (what a browser's device list does by
#    polling), started before the writer, reads the writer's frames; a
#    handle opened before the writer and held open does not stop it.
#  - caps change mid-stream, 640x480 -> 320x240 I420 (a Python program
#    changes the capsfilter; fgrabsink reopens the node and sets the new
#    format): with no reader attached at the change, v4l2src afterwards
#    reads byte-identical 320x240 frames; with a reader (v4l2src, mmap)
#    attached at the change, v4l2loopback keeps the format (0.12: any opener
#    keeps it; 0.15: a reader holding the capture format token does), so
#    fgrabsink stops with an error naming both sizes, and the attached
#    reader received only whole 640x480 frames.
#@vivid: none
#@v4l2loopback: devices=1 video_nr=10 card_label=VirtualCam exclusive_caps=1
# shellcheck source=../lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"

DEV=/dev/video10
N=10
FMT=I420
PARAMS="devices=1 video_nr=10 card_label=VirtualCam exclusive_caps=1"
export GST_DEBUG_NO_COLOR=1
require_element fgrabsink
loopback_version
info "v4l2loopback $LOOP_VERSION"
cam_ref checkers-8 $FMT 640 480
REF_BIG=$CAM_REF SIZE_BIG=$(cam_size $FMT 640 480)
cam_ref checkers-8 $FMT 320 240
REF_SMALL=$CAM_REF SIZE_SMALL=$(cam_size $FMT 320 240)

section "a consumer before the writer"
loopback_reload "$PARAMS"
expect_eq "no writer: node announces" "$(node_caps $DEV)" output
nfmt=$(v4l2-ctl -d $DEV --list-formats 2>/dev/null | grep -c "^[[:space:]]*\[[0-9]*\]:" || true)
expect_eq "no writer: capture formats listed" "$nfmt" 0
cam_ffmpeg early-ffmpeg 1
expect_eq "no writer: ffmpeg fails" "$([ "$CAM_RC" -ne 0 ] && [ "$CAM_RC" -ne 255 ] && echo yes || echo "no (exit $CAM_RC)")" yes
expect_log "no writer: ffmpeg says why" 'Not a video capture device' "$CAM_LOG"
cam_v4l2src early-v4l2src 1
expect_eq "no writer: v4l2src fails" "$([ "$CAM_RC" -ne 0 ] && [ "$CAM_RC" -ne 124 ] && echo yes || echo "no (exit $CAM_RC)")" yes
expect_log "no writer: v4l2src says why" 'not a capture device' "$CAM_LOG"
# a handle held open from before the writer (an application that opened the
# camera early), and a consumer that waits for CAPTURE, then reads
exec 3<>$DEV
(
	for _ in $(seq 600); do
		[ "$(node_caps $DEV)" = capture ] && break
		sleep 0.1
	done
	cam_v4l2src waiting $N
	echo "$CAM_RC $CAM_N $CAM_SUMS $CAM_SIZES" >"$KT_WORK/waiting.result"
) &
waiter=$!
sleep 1
if cam_writer early checkers-8 $FMT 640 480; then
	pass "writer started with a handle already open: node announces capture"
else
	fail "writer started with a handle already open: node announces '$(node_caps $DEV)'"
	show_log "$WRITER_LOG"
fi
wait_exit $waiter 90 || fail "the waiting consumer did not end"
read -r rc n sums sizes <"$KT_WORK/waiting.result" || true
expect_eq "waiting consumer: v4l2src exit status" "$rc" 0
expect_eq "waiting consumer: frames" "$n" $N
expect_eq "waiting consumer: every frame byte-identical (md5)" "$sums" "$REF_BIG"
expect_eq "waiting consumer: frame size" "$sizes" "$SIZE_BIG"
cam_stop_writer early
exec 3>&-

cat >"$KT_WORK/recaps.py" <<'PY'
import os, sys
import gi
gi.require_version("Gst", "1.0")
from gi.repository import Gst
Gst.init(None)
dev, caps1, caps2, go = sys.argv[1:5]
p = Gst.parse_launch("videotestsrc pattern=checkers-8 is-live=true ! capsfilter name=cf caps=%s ! fgrabsink device=%s" % (caps1, dev))
bus = p.get_bus()
def wait_go():
    for _ in range(900):
        m = bus.timed_pop_filtered(100 * Gst.MSECOND, Gst.MessageType.ERROR)
        if m:
            err, dbg = m.parse_error()
            print("ERROR: %s" % err.message, flush=True)
            return False
        if os.path.exists(go):
            os.unlink(go)
            return True
    print("TIMEOUT", flush=True)
    return False
p.set_state(Gst.State.PLAYING)
print("PLAYING 1", flush=True)
ok = wait_go()
if ok:
    p.get_by_name("cf").set_property("caps", Gst.Caps.from_string(caps2))
    print("CAPS 2", flush=True)
    ok = wait_go()
p.set_state(Gst.State.NULL)
print("DONE", flush=True)
sys.exit(0 if ok else 1)
PY
go=$KT_WORK/recaps-go

# recaps_start TAG: the Python writer at 640x480, until the node announces capture
recaps_start() {
	rm -f "$go"
	RLOG=$KT_LOGS/$1-writer.log
	"$KT_PYTHON" "$KT_WORK/recaps.py" $DEV "$(cam_caps $FMT 640 480)" "$(cam_caps $FMT 320 240)" "$go" >"$RLOG" 2>&1 &
	RPID=$!
	for _ in $(seq 300); do
		[ "$(node_caps $DEV)" = capture ] && return 0
		sleep 0.1
	done
	return 1
}

section "caps change 640x480 -> 320x240, no reader attached at the change"
loopback_reload "$PARAMS"
recaps_start recaps-free || fail "recaps-free: node never announced capture"
cam_v4l2src free-before $N
cam_expect "before the change: v4l2src" $N "$REF_BIG" "$SIZE_BIG"
touch "$go"
wait_for_log "$RLOG" '^(CAPS 2|ERROR)' 30 || true
for _ in $(seq 100); do
	drv_fmt $DEV
	[ "${DRV_W}x$DRV_H" = 320x240 ] && break
	grep -q '^ERROR' "$RLOG" && break
	sleep 0.1
done
expect_eq "after the change: capture format (G_FMT)" "$DRV_FOURCC ${DRV_W}x$DRV_H" "YU12 320x240"
expect_no_log "after the change: no error from the writer" '^ERROR' "$RLOG"
cam_v4l2src free-after $N
cam_expect "after the change: v4l2src" $N "$REF_SMALL" "$SIZE_SMALL"
touch "$go"
wait_exit $RPID 30 || true
expect_eq "recaps-free: writer program exit status" "$KT_RC" 0
[ "$KT_RC" -eq 0 ] || show_log "$RLOG"

section "caps change 640x480 -> 320x240 with a reader attached"
loopback_reload "$PARAMS"
recaps_start recaps-held || fail "recaps-held: node never announced capture"
rdir=$(fresh_dir held)
gst_bg held-reader -e v4l2src device=$DEV ! multifilesink location="$rdir/%05d.raw"
reader=$KT_PID rlog=$KT_LOG
wait_for_log "$rlog" 'Setting pipeline to PLAYING' 30 || true
for _ in $(seq 100); do
	[ -e "$rdir/00004.raw" ] && break
	sleep 0.1
done
touch "$go"
# The loopback keeps 640x480 for the attached reader: v4l2loopback 0.12
# keeps the format while any handle is open (ready_for_capture), 0.15
# while another opener holds a format token (has_other_owners); both answer
# S_FMT with the kept format, which fgrabsink reports.
if wait_for_log "$RLOG" '^ERROR' 30; then
	pass "with a reader attached: the writer stopped with an error"
else
	fail "with a reader attached: no error from the writer within 30 s"
fi
expect_log "with a reader attached: the error names both sizes" \
	"changed the negotiated format .*320x240 to .*640x480\\. A loopback device keeps its format while a reader has it open" "$RLOG"
wait_exit $RPID 30 || true
expect_eq "recaps-held: writer program exit status" "$KT_RC" 1
kill -INT "$reader" 2>/dev/null || true
wait_exit "$reader" 30 || true
frames "$rdir"
info "attached reader: exit $KT_RC, $FR_N frames, sizes '$FR_SIZES'"
expect_ge "attached reader: frames received" "$FR_N" 5
expect_eq "attached reader: every frame 640x480, byte-identical (md5)" "$FR_SUMS" "$REF_BIG"
expect_eq "attached reader: frame size" "$FR_SIZES" "$SIZE_BIG"

kt_finish
