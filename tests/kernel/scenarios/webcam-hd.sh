#!/bin/bash
# Virtual webcam (v4l2loopback exclusive_caps=1) at 1280x720: as
# webcam-readers.sh at 640x480, fgrabsink writes the still videotestsrc
# pattern checkers-8 as I420 and as YUY2, and FFmpeg (mmap) and GStreamer's
# v4l2src (mmap) each read frames that must all be byte-identical (md5, size)
# to the frame rendered without a device; the node shows the format as
# written (G_FMT) and v4l2src negotiates it.
#@vivid: none
#@v4l2loopback: devices=1 video_nr=10 card_label=VirtualCam exclusive_caps=1
# shellcheck source=../lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"

DEV=/dev/video10
N=10
W=1280 H=720
export GST_DEBUG_NO_COLOR=1
require_element fgrabsink
loopback_version
info "v4l2loopback $LOOP_VERSION"

for fmt in I420 YUY2; do
	tag=$fmt-${W}x$H
	section "$tag: fgrabsink writes, FFmpeg and v4l2src read $N frames each"
	cam_ref checkers-8 $fmt $W $H
	ref=$CAM_REF size=$(cam_size $fmt $W $H)
	if ! cam_writer "$tag" checkers-8 $fmt $W $H; then
		fail "$tag: the node did not announce capture alone within 30 s of the writer's start (now: $(node_caps $DEV))"
		show_log "$WRITER_LOG"
		cam_stop_writer "$tag"
		continue
	fi
	pass "$tag: node announces capture alone while fgrabsink writes"
	drv_fmt $DEV
	expect_eq "$tag: capture format (G_FMT)" "$DRV_FOURCC ${DRV_W}x$DRV_H" "${KT_GST2V4L2[$fmt]} ${W}x$H"
	cam_ffmpeg "$tag-ffmpeg" $N
	cam_expect "$tag: ffmpeg" $N "$ref" "$size"
	cam_v4l2src "$tag-v4l2src" $N
	cam_expect "$tag: v4l2src" $N "$ref" "$size"
	expect_eq "$tag: v4l2src caps" "$(caps_field "$CAM_CAPS" format) $(caps_field "$CAM_CAPS" width)x$(caps_field "$CAM_CAPS" height)" "$fmt ${W}x$H"
	cam_stop_writer "$tag"
	expect_eq "$tag: node after the writer exited" "$(node_caps $DEV)" output
done

kt_finish
