#!/bin/bash
# Browsers on fgrabsink's virtual webcam (docs/guide.md, "Browsers"):
# Debian's Chromium and Firefox ESR, headless, on a video-call page
# (tests/kernel/browser/) served from 127.0.0.1, do what a call does with
# v4l2loopback's node (exclusive_caps=1: browsers list a node that
# announces capture alone): enumerateDevices lists the camera under its
# card_label, getUserMedia opens it at 640x360 and, after the writer
# stopped (the camera then leaves Chromium's list) and started again, at
# 1280x720, and again after a writer restart under the open track; the
# frames drawn to a canvas have the bars' colours and move.  Chromium: YUY2,
# I420, NV12 and MJPEG written by fgrabsink (checked) and by v4l2sink
# io-mode=mmap (the anchor, recorded only); Firefox: fgrabsink, the same
# four.  Then, in Chromium, the one that gives a camera up, the writer
# pauses for 15 s under an open track: with fgrabsink's keep-alive=repeat
# the track stays live and recovers (checked; keepalive.py).  Without
# keep-alive, the driver's timers and Firefox through the same pause: the
# browser-timers group (outside CI, for the time).  One session a browser
# for all of it: a browser takes 20-80 s to start under TCG.  camtest.py
# says the steps; its tables end each part.
#@vivid: none
#@v4l2loopback: devices=1 video_nr=10 card_label=FgrabCam exclusive_caps=1
# shellcheck source=../lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
# shellcheck source=../browser/browser-lib.sh
source "$KT_DIR/browser/browser-lib.sh"

export GST_DEBUG_NO_COLOR=1
for e in fgrabsink v4l2sink compositor jpegenc; do require_element "$e"; done
browsers_ready chromium firefox-esr

# Chromium with both sinks and every format; Firefox ESR, driven the
# same way (the page needs no browser protocol), with fgrabsink (it starts
# in up to 80 s and each format costs it 20-60 s)
st=0
"$KT_PYTHON" "$KT_DIR/browser/camtest.py" chromium /dev/video10 FgrabCam "$KT_LOGS/chromium" || st=1
"$KT_PYTHON" "$KT_DIR/browser/camtest.py" firefox /dev/video10 FgrabCam "$KT_LOGS/firefox" fgrabsink pauses= || st=1
exit "$st"
