#!/bin/bash
# v4l2loopback's own timers against Chromium, beside fgrabsink's
# keep-alive (docs/guide.md, "Keeping the camera alive"): a call page
# holds the camera while the writer's pipeline is PAUSED for 15 s, the
# writer being fgrabsink with keep-alive=off and, set through its
# extra-controls, the driver's timeout=500, timeout=2000 or
# sustain_framerate=1 (tests/kernel/browser/keepalive.py,
# DRIVER_WRITERS), then keep-alive=repeat and off for reference; then
# Firefox ESR with keep-alive=repeat and off.  What the track did is
# printed for the guide's tables, not judged (but keep-alive=repeat's
# checks): this group is not in the kernel suite CI runs (meson suite
# kernel-compare).
#@vivid: none
#@v4l2loopback: devices=1 video_nr=10 card_label=FgrabCam exclusive_caps=1
# shellcheck source=../lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
# shellcheck source=../browser/browser-lib.sh
source "$KT_DIR/browser/browser-lib.sh"

export GST_DEBUG_NO_COLOR=1
for e in fgrabsink compositor; do require_element "$e"; done
browsers_ready chromium firefox-esr

st=0
"$KT_PYTHON" "$KT_DIR/browser/camtest.py" chromium /dev/video10 FgrabCam "$KT_LOGS/chromium" \
	none pauses=timeout=500,timeout=2000,sustain_framerate=1,repeat,off || st=1
"$KT_PYTHON" "$KT_DIR/browser/camtest.py" firefox /dev/video10 FgrabCam "$KT_LOGS/firefox" \
	none pauses=repeat,off || st=1
exit "$st"
