#!/bin/bash
# fgrabsrc and frames that do not fill the size GStreamer expects, on vivid.
# - 4:2:0 at an odd height: vivid counts the chroma rows of NV12 and YU12 rounded
#   down (sizeimage = bytesperline * height / vdownsampling), so at 720x241 its
#   sizeimage is below the frame GStreamer describes (one chroma row short).
#   What vivid answers to S_FMT is shown with v4l2-ctl.  Asked for 720x241,
#   fgrabsrc must refuse with a message (vivid enumerates heights in steps of 2,
#   so negotiation refuses; the sizeimage check covers drivers that offer it);
#   left to fixate from vivid's current 720x241, it must settle on a size where
#   the driver's sizeimage and GStreamer's frame agree, with whole frames
#   byte-identical to the driver's mmap reference.  vivid of Linux 6.12
#   (Debian 13) rounds a 4:2:0 height down to an even one in S_FMT, so there
#   the short sizeimage cannot happen (the unit tier's fake device covers the
#   element's check); the refusal and the fixation are checked all the same.
# - vivid dropping buffers (percentage_of_dropped_buffers): the frames lost are
#   posted as QoS messages with processed/dropped counts in buffers.
# The scaler-only mode (ccs_cap_mode=4) lets the HDMI input (3) take any size; the
# webcam input (0) has discrete sizes only.
#@vivid: n_devs=1 node_types=0x101 ccs_cap_mode=4
#@v4l2loopback: none
# shellcheck source=../lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"

DEV=/dev/video0
require_element fgrabsrc
v4l2-ctl -d $DEV -i 3 >/dev/null || fatal "cannot select vivid input 3 (HDMI)"
vivid_still

# gst_size FORMAT W H: GStreamer's frame size (4:2:0: chroma rows rounded up).
gst_size() {
	local w=$2 h=$3
	case $1 in
	NV12 | I420) echo $((w * h + w * ((h + 1) / 2))) ;;
	*) fatal "gst_size: no size for $1" ;;
	esac
}

section "4:2:0 at an odd height: vivid's sizeimage against GStreamer's frame"
for pair in NV12:NV12 I420:YU12; do
	g=${pair%%:*} f=${pair##*:}
	tag=odd-$g
	v4l2-ctl -d $DEV --set-fmt-video="width=720,height=241,pixelformat=$f" >/dev/null 2>&1 ||
		fail "$tag: v4l2-ctl could not set $f 720x241"
	drv_fmt $DEV
	want=$(gst_size "$g" 720 241)
	info "vivid runs $DRV_FOURCC ${DRV_W}x$DRV_H: bytesperline $DRV_BPL, sizeimage $DRV_SIZE; GStreamer's $g frame: $want bytes"
	if [ "${DRV_W}x$DRV_H" = 720x240 ] && [ "$DRV_SIZE" = "$(gst_size "$g" 720 240)" ]; then
		pass "$tag: vivid rounds 720x241 down to 720x240 in S_FMT (Linux 6.12): no short frame"
	else
		expect_eq "$tag: vivid takes 720x241 from S_FMT" "${DRV_W}x$DRV_H" 720x241
		if [ -n "$DRV_SIZE" ] && [ "$DRV_SIZE" -lt "$want" ]; then
			pass "$tag: vivid's sizeimage $DRV_SIZE is below GStreamer's $want"
		else
			fail "$tag: vivid's sizeimage '$DRV_SIZE' is not below GStreamer's $want (the case this scenario is about)"
		fi
	fi
	# Asked for explicitly: refused with a message.  vivid enumerates its sizes
	# in steps of 2 lines, so the probed caps lack 241 and negotiation says so;
	# a driver that offered it would get the sizeimage message.
	gst "$tag" 60 fgrabsrc device=$DEV num-buffers=3 \
		! "video/x-raw,format=$g,width=720,height=241" ! fakesink
	if [ "$KT_RC" -ne 0 ] && [ "$KT_RC" -ne 124 ] && [ "$KT_RC" -ne 137 ]; then
		pass "$tag: refused (exit $KT_RC)"
	else
		fail "$tag: exit status $KT_RC (want a refusal, not success or a hang)"
	fi
	expect_log "$tag: the error says why" \
		"^ERROR: .*(None of the formats of device '$DEV' is accepted downstream|stores a frame of $g 720x241 in $DRV_SIZE bytes, less than the $want bytes)"
	expect_eq "$tag: no caps were set on the source pad" "$(src_caps "$KT_LOG")" ""

	# Left to fixation from vivid's current 720x241: a size where the driver
	# and GStreamer agree, with whole frames equal to the driver's own.
	tag=fixed-$g
	v4l2-ctl -d $DEV --set-fmt-video="width=720,height=241,pixelformat=$f" >/dev/null 2>&1 ||
		fail "$tag: v4l2-ctl could not set $f 720x241"
	dir=$(fresh_dir "$tag")
	gst "$tag" 120 fgrabsrc device=$DEV num-buffers=3 ! "video/x-raw,format=$g" \
		! multifilesink location="$dir/frame-%05d.raw"
	if [ "$KT_RC" -ne 0 ]; then
		fail "$tag: gst-launch exit status $KT_RC"
		show_log "$KT_LOG"
		continue
	fi
	caps=$(src_caps "$KT_LOG")
	w=$(caps_field "$caps" width) h=$(caps_field "$caps" height)
	info "negotiated $g ${w}x$h"
	frames "$dir"
	drv_fmt $DEV
	expect_eq "$tag: the driver runs the negotiated size" "${DRV_W}x$DRV_H" "${w}x$h"
	expect_eq "$tag: driver's sizeimage and GStreamer's frame agree" "$DRV_SIZE" "$(gst_size "$g" "$w" "$h")"
	expect_eq "$tag: buffers with num-buffers=3" "$FR_N" 3
	expect_eq "$tag: every buffer is a whole frame" "$FR_SIZES" "$DRV_SIZE"
	expect_eq "$tag: still pattern gives identical frames (none torn or shifted)" "$(wc -w <<<"$FR_SUMS")" 1
	ref=$KT_WORK/$tag.ref
	if v4l2-ctl -d $DEV --set-fmt-video="width=$w,height=$h,pixelformat=$f" \
		--stream-mmap --stream-count=1 --stream-to="$ref" >"$KT_LOGS/$tag-ref.log" 2>&1 && [ -s "$ref" ]; then
		refsum=$(md5sum <"$ref")
		expect_eq "$tag: frames equal the driver's mmap reference frame" "$FR_SUMS" "${refsum%% *}"
	else
		fail "$tag: could not take a mmap reference frame with v4l2-ctl"
		show_log "$KT_LOGS/$tag-ref.log" 5
	fi
done

section "frames vivid drops are posted as QoS"
v4l2-ctl -d $DEV -i 0 >/dev/null || fatal "cannot select vivid input 0"
v4l2-ctl -d $DEV -c percentage_of_dropped_buffers=50 || fatal "cannot set percentage_of_dropped_buffers"
gst qos 120 -m fgrabsrc name=src device=$DEV num-buffers=20 \
	! "video/x-raw,format=YUY2,width=320,height=180,framerate=30/1" ! fakesink
v4l2-ctl -d $DEV -c percentage_of_dropped_buffers=0 || true
expect_eq "qos: capture ends with num-buffers (exit status)" "$KT_RC" 0
qos=$(grep -c 'from element "src" (qos)' "$KT_LOG" || true)
info "$qos QoS messages from fgrabsrc"
expect_ge "qos: fgrabsrc posted QoS messages for the dropped frames" "$qos" 1
last=$(grep 'from element "src" (qos)' "$KT_LOG" | tail -n 1)
info "last: $last"
if [[ $last =~ processed=\(guint64\)([0-9]+).*dropped=\(guint64\)([0-9]+) ]]; then
	expect_le "qos: processed counts buffers pushed" "${BASH_REMATCH[1]}" 20
	expect_ge "qos: dropped counts the lost frames" "${BASH_REMATCH[2]}" 1
else
	fail "qos: no processed/dropped counts in the QoS message"
fi
expect_log "qos: counts are in buffers" 'from element "src" \(qos\).*format=\(GstFormat\)(buffers|GST_FORMAT_BUFFERS)'

kt_finish
