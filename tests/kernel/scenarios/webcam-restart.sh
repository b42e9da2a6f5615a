#!/bin/bash
# Virtual webcam (v4l2loopback exclusive_caps=1): the writer goes away and
# comes back, and readers get frames again.
#  - a second, new fgrabsink process after the first one exited (users
#    report this failing): it must configure the node, which must announce
#    CAPTURE again, and GStreamer's v4l2src (mmap) must read its frames
#    (pattern colors, told apart from the first writer's checkers-8 by md5);
#  - one fgrabsink pipeline taken PLAYING -> READY -> PLAYING (a Python
#    program; videotestsrc's pattern changed while in READY): v4l2src reads
#    the second run's frames.
# Each section starts on a freshly loaded module.
#@vivid: none
#@v4l2loopback: devices=1 video_nr=10 card_label=VirtualCam exclusive_caps=1
# shellcheck source=../lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"

DEV=/dev/video10
N=10
FMT=I420 W=640 H=480
PARAMS="devices=1 video_nr=10 card_label=VirtualCam exclusive_caps=1"
SIZE=$(cam_size $FMT $W $H)
export GST_DEBUG_NO_COLOR=1
require_element fgrabsink
loopback_version
info "v4l2loopback $LOOP_VERSION"
cam_ref checkers-8 $FMT $W $H
REF_A=$CAM_REF
cam_ref colors $FMT $W $H
REF_B=$CAM_REF

# read_back TAG MD5: v4l2src reads N frames, all must be MD5
read_back() {
	cam_v4l2src "$1" $N
	cam_expect "$1: v4l2src" $N "$2" "$SIZE"
}

section "a second fgrabsink process after the first one exited"
loopback_reload "$PARAMS"
if cam_writer first checkers-8 $FMT $W $H; then
	pass "first writer: node announces capture"
	read_back first "$REF_A"
else
	fail "first writer: node announces '$(node_caps $DEV)', not capture"
fi
cam_stop_writer first
info "node after the first writer exited: $(node_caps $DEV)"
if cam_writer second colors $FMT $W $H; then
	pass "second writer: node announces capture"
	read_back second "$REF_B"
else
	fail "second writer: node announces '$(node_caps $DEV)', not capture"
	show_log "$WRITER_LOG"
fi
cam_stop_writer second

section "one fgrabsink pipeline PLAYING -> READY -> PLAYING"
loopback_reload "$PARAMS"
go=$KT_WORK/restart-go
rm -f "$go"
cat >"$KT_WORK/restart.py" <<'PY'
import os, sys, time
import gi
gi.require_version("Gst", "1.0")
from gi.repository import Gst, GLib
Gst.init(None)
dev, caps, go = sys.argv[1:4]
p = Gst.parse_launch("videotestsrc name=src pattern=checkers-8 is-live=true ! %s ! fgrabsink device=%s" % (caps, dev))
bus = p.get_bus()
def run(phase):
    if p.set_state(Gst.State.PLAYING) == Gst.StateChangeReturn.FAILURE:
        print("PHASE %d: PLAYING failed" % phase, flush=True)
    print("PHASE %d: PLAYING" % phase, flush=True)
    # until the scenario says it read what it wanted, or an error
    for _ in range(600):
        m = bus.timed_pop_filtered(100 * Gst.MSECOND, Gst.MessageType.ERROR)
        if m:
            err, dbg = m.parse_error()
            print("ERROR: %s (%s)" % (err.message, dbg), flush=True)
            return False
        if os.path.exists(go):
            os.unlink(go)
            return True
    print("PHASE %d: timed out" % phase, flush=True)
    return False
ok = run(1)
p.set_state(Gst.State.READY)
p.get_state(Gst.CLOCK_TIME_NONE)
print("PHASE 1: READY", flush=True)
p.get_by_name("src").set_property("pattern", "colors")
ok = run(2) and ok
p.set_state(Gst.State.NULL)
print("DONE ok=%s" % ok, flush=True)
sys.exit(0 if ok else 1)
PY
log=$KT_LOGS/restart-writer.log
"$KT_PYTHON" "$KT_WORK/restart.py" $DEV "$(cam_caps $FMT $W $H)" "$go" >"$log" 2>&1 &
pid=$!
for phase in 1 2; do
	want=$REF_A
	[ $phase -eq 1 ] || want=$REF_B
	if ! wait_for_log "$log" "^(PHASE $phase: PLAYING|ERROR)" 30; then
		fail "run $phase: the pipeline did not reach PLAYING within 30 s"
		break
	fi
	ok=0
	for _ in $(seq 100); do
		[ "$(node_caps $DEV)" = capture ] && ok=1 && break
		kill -0 $pid 2>/dev/null || break
		sleep 0.1
	done
	if [ $ok -eq 1 ]; then
		pass "run $phase: node announces capture"
		read_back "run$phase" "$want"
	else
		fail "run $phase: node announces '$(node_caps $DEV)', not capture"
	fi
	touch "$go"
done
wait_exit $pid 30 || true
expect_eq "PLAYING -> READY -> PLAYING: writer program exit status" "$KT_RC" 0
expect_no_log "PLAYING -> READY -> PLAYING: no error from the writer" '^ERROR' "$log"
[ "$KT_RC" -eq 0 ] || show_log "$log"

kt_finish
