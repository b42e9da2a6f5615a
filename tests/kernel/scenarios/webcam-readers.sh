#!/bin/bash
# Virtual webcam (v4l2loopback exclusive_caps=1), the readers browsers and
# conferencing programs use: fgrabsink writes the still videotestsrc pattern
# checkers-8 (every frame the same bytes) as I420 and as YUY2 at 640x480; FFmpeg
# (libavdevice's v4l2 demuxer, mmap) and GStreamer's own v4l2src (default
# io-mode, mmap, as Chrome and OBS read) each take 15 frames, which must all
# be byte-identical (md5, size) to the frame rendered without a device
# (pattern=smpte is no reference: its noise bar differs in every frame).
# Checked on the way, from a new handle (v4l2-ctl): the node announces OUTPUT
# alone while idle and CAPTURE alone while the writer streams (what
# exclusive_caps=1 is for), and what it announces once the writer is gone.
#@vivid: none
#@v4l2loopback: devices=1 video_nr=10 card_label=VirtualCam exclusive_caps=1
# shellcheck source=../lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"

DEV=/dev/video10
N=15
PARAMS="devices=1 video_nr=10 card_label=VirtualCam exclusive_caps=1"
export GST_DEBUG_NO_COLOR=1
require_element fgrabsink
require_element v4l2src
loopback_version
info "v4l2loopback $LOOP_VERSION (from /sys/module/v4l2loopback/version; none before 0.13)"

for fmt in I420 YUY2; do
	W=640 H=480
	tag=$fmt-${W}x$H
	section "$tag: fgrabsink writes, FFmpeg and v4l2src read $N frames each"
	loopback_reload "$PARAMS"
	expect_eq "$tag: idle node announces" "$(node_caps $DEV)" output
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
	# What a new handle sees once the writer closed the node (no opener
	# left): OUTPUT again, ready for the next writer. v4l2loopback 0.12.7
	# counts a handle as the writer only after VIDIOC_STREAMON(OUTPUT), never
	# after write(), and gives OUTPUT back only when a writer closes: after a
	# write()-only writer it announced neither direction until the module was
	# reloaded (seen here before fgrabsink claimed the writer with STREAMON;
	# fixed upstream in 0.13 by 3312a6d). 0.15's tokens announce OUTPUT as
	# soon as no writer streams. Same answer on every version.
	expect_eq "$tag: node after the writer exited ($LOOP_VERSION)" "$(node_caps $DEV)" output
done

kt_finish
