#!/bin/bash
# Who watches the virtual webcam (issue 36): examples/webcam-on-demand.py
# writes into v4l2loopback through fgrabsink while FFmpeg (libavdevice's
# v4l2 demuxer, which streams with mmap: VIDIOC_STREAMON) takes frames from
# the camera and closes it.  On v4l2loopback 0.13 and later (Debian 13's
# 0.15) the driver's client-usage event drives fgrabsink's readers
# property 0 -> 1 -> 0, and the example starts its expensive branch when
# FFmpeg starts and stops it after; FFmpeg's frames come.  On 0.12 (Debian
# 12's) the driver has no such event: readers stays -1 and the expensive
# branch runs all along, as the docs say.
#@vivid: none
#@v4l2loopback: devices=1 video_nr=10 card_label=Watched exclusive_caps=1
# shellcheck source=../lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"

DEV=/dev/video10
EXAMPLE=${FGRAB_SOURCE_DIR:?FGRAB_SOURCE_DIR not set}/examples/webcam-on-demand.py
LOG=$KT_LOGS/webcam-on-demand.log
[ -x "$KT_PYTHON" ] || fatal "$KT_PYTHON missing"
require_element fgrabsink
loopback_version
info "v4l2loopback $LOOP_VERSION"

section "the example writes; FFmpeg watches for 30 frames after 4 s"
"$KT_PYTHON" "$EXAMPLE" $DEV --seconds 20 --size 320x240 >"$LOG" 2>&1 &
example=$!
sleep 4
cam_ffmpeg watcher 30
expect_ge "FFmpeg got its frames from the camera" "$CAM_N" 30
sleep 4
wait "$example" && KT_RC=0 || KT_RC=$?
expect_eq "the example ran its 20 s without an error" "$KT_RC" 0
show_log "$LOG" 40
readers=$(awk '$1 == "readers:" { printf "%s ", $2 }' "$LOG")
info "readers reported: $readers"
if [ "$LOOP_VERNUM" -ge 1300 ]; then
	expect_eq "readers went 0, then 1 while FFmpeg streamed, then 0" \
		"$readers" "0 1 0 "
	expect_eq "the expensive branch started and stopped once each" \
		"$(grep -c '^expensive: started' "$LOG") $(grep -c '^expensive: stopped' "$LOG")" "1 1"
else
	expect_eq "0.12 has no client-usage event: readers stays -1" "$readers" "-1 "
	# it stops only when the example ends, after 20 s at 30 fps
	expect_eq "the expensive branch started once" \
		"$(grep -c '^expensive: started' "$LOG")" 1
	expect_ge "the expensive branch ran all along (frames at its stop)" \
		"$(sed -n 's/^expensive: stopped (\([0-9]*\) frames)$/\1/p' "$LOG" | head -1)" 400
fi
kt_finish
