#!/bin/bash
# fgrabsink into vivid's video output node (/dev/video1): on the S-Video output
# with PAL and NTSC (interlaced 720x576 / 720x480, the only sizes it takes) and
# on the HDMI output (progressive, scaled sizes, a packed and a planar format).
# For each: the format fgrabsink set is the driver's format afterwards (G_FMT
# from v4l2-ctl), vivid-out's refused S_PARM (ENOTTY) is a warning and not an
# error, and the frames are written: gst-launch ends with EOS, exit 0 and the
# element counts every frame as written.
#
# The write check is differential against the driver's own write(): before each
# pipeline, dd writes two whole frames of the driver's sizeimage to the node.
# Where dd succeeds, fgrabsink must write every frame. Where the kernel's
# write() itself refuses whole frames (on Debian's 6.1 kernels vb2's write
# emulation queues the buffer with bytesused 0 and vivid-out rejects it:
# "vid_out_buf_prepare the payload is too small for plane 0 (0 < N)"), the
# check becomes: fgrabsink fails promptly with the driver's EINVAL in a clear
# error, without hanging and without claiming frames were written. Both outcomes
# are printed as PASS/FAIL lines; nothing is skipped.
#
# The interlaced caps carry the standard's field order (top field first on PAL,
# bottom field first on NTSC), which the writer takes when it names none.
#
# Also: fgrabsink on vivid's capture node (/dev/video0) fails with "is not a
# video output device".
#@vivid: n_devs=1 node_types=0x101
#@v4l2loopback: none
# shellcheck source=../lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"

OUT=/dev/video1
CAP=/dev/video0
export GST_DEBUG_NO_COLOR=1

# out_fmt DEV: the current output format, like drv_fmt for capture; sets OUT_W
# OUT_H OUT_FOURCC (spaces as '_') OUT_FIELD OUT_BPL OUT_SIZE.
out_fmt() {
	local out line
	OUT_W="" OUT_H="" OUT_FOURCC="" OUT_FIELD="" OUT_BPL="" OUT_SIZE=""
	out=$(v4l2-ctl -d "$1" --get-fmt-video-out 2>&1) || true
	while IFS= read -r line; do
		if [[ $line =~ Width/Height\ *:\ *([0-9]+)/([0-9]+) ]]; then
			OUT_W=${BASH_REMATCH[1]} OUT_H=${BASH_REMATCH[2]}
		elif [[ $line =~ Pixel\ Format\ *:\ *\'([^\']*)\' ]]; then
			OUT_FOURCC=${BASH_REMATCH[1]// /_}
		elif [[ $line =~ Field\ *:\ *(.*)$ ]]; then
			OUT_FIELD=${BASH_REMATCH[1]// /_}
		elif [[ $line =~ Bytes\ per\ Line\ *:\ *([0-9]+) ]]; then
			OUT_BPL=${BASH_REMATCH[1]}
		elif [[ $line =~ Size\ Image\ *:\ *([0-9]+) ]]; then
			OUT_SIZE=${BASH_REMATCH[1]}
		fi
	done <<<"$out"
}

# output_index NAME-PREFIX: the index of the vivid output whose name starts so
output_index() {
	local line idx=""
	while IFS= read -r line; do
		if [[ $line =~ Output\ *:\ *([0-9]+) ]]; then
			idx=${BASH_REMATCH[1]}
		elif [[ $line =~ Name\ *:\ *(.*)$ ]] && [[ ${BASH_REMATCH[1]} == "$1"* ]]; then
			echo "$idx"
			return 0
		fi
	done < <(v4l2-ctl -d $OUT --list-outputs 2>&1)
	return 1
}

# expect_error DESC: the last gst-launch failed by itself (gst-launch exits 1 for
# an error while running, 255 when the pipeline cannot even be paused), not by
# being killed by the timeout and not with success.
expect_error() {
	case $KT_RC in
	0) fail "$1: gst-launch succeeded (exit 0), an error was expected" ;;
	124 | 137) fail "$1: gst-launch hung (killed by the timeout, exit $KT_RC)" ;;
	*) pass "$1: gst-launch failed (exit $KT_RC)" ;;
	esac
}

# baseline TAG SIZE: the driver's own write() of two whole frames of SIZE bytes;
# sets BASE_OK (1 if both went through) and BASE_ERR (dd's complaint).
baseline() {
	local log=$KT_LOGS/$1-dd.log
	BASE_OK=0 BASE_ERR=""
	if timeout -k 2 20 dd if=/dev/zero of=$OUT bs="$2" count=2 >"$log" 2>&1; then
		BASE_OK=1
		info "baseline: dd wrote 2 frames of $2 bytes to $OUT: the driver's write() works here"
	else
		BASE_ERR=$(grep -m1 'error writing' "$log" || head -n1 "$log")
		info "baseline: dd of 2 frames of $2 bytes to $OUT failed: $BASE_ERR"
		info "NOTE: this kernel's ($(uname -r)) vivid-out refuses write() of whole frames by"
		info "      itself; fgrabsink is checked to fail cleanly with the driver's error instead"
	fi
}

# sink_check TAG N GSTFORMAT W H MODE RATE [FIELD-ORDER]: writes N frames with
# fgrabsink and checks the outcome against the baseline and the driver's format
# afterwards; with FIELD-ORDER, the caps the writer settled on (it names none)
# must carry that order, the standard's.
sink_check() {
	local tag=$1 n=$2 fmt=$3 w=$4 h=$5 mode=$6 rate=$7 order=${8:-} want_field wrote fourccs caps
	out_fmt $OUT
	baseline "$tag" "$OUT_SIZE"
	GST_DEBUG=fgrabsink:4 gst "$tag" 60 videotestsrc num-buffers="$n" \
		! "video/x-raw,format=$fmt,width=$w,height=$h,interlace-mode=$mode,framerate=$rate" \
		! fgrabsink device=$OUT
	if [ "$KT_RC" -eq 124 ] || [ "$KT_RC" -eq 137 ]; then
		fail "$tag: gst-launch hung (killed by the 60 s timeout)"
		show_log "$KT_LOG"
	else
		pass "$tag: gst-launch ended by itself in ${KT_MS} ms"
	fi
	expect_log "$tag: refused S_PARM (ENOTTY) is a warning" \
		"WARNING: from element .*fgrabsink0: Device '$OUT' does not accept output parameters"
	wrote=$(frames_written "$KT_LOG")
	if [ "$BASE_OK" -eq 1 ]; then
		expect_eq "$tag: gst-launch exit status" "$KT_RC" 0
		expect_log "$tag: pipeline reached EOS" 'Got EOS from element'
		expect_no_log "$tag: no error message" '^ERROR: '
		expect_eq "$tag: frames fgrabsink wrote" "$wrote" "$n"
	else
		expect_error "$tag: driver refuses write()"
		expect_log "$tag: the error names the refused write()" \
			"ERROR: from element .*fgrabsink0: Device '$OUT' does not support write\(\) with the current input, output or format"
		expect_log "$tag: the error carries the driver's errno" 'write: Invalid argument'
		expect_eq "$tag: frames fgrabsink wrote (driver refuses write())" "$wrote" 0
	fi
	# The driver keeps the format fgrabsink set.
	out_fmt $OUT
	expect_eq "$tag: driver's size after the run" "${OUT_W}x$OUT_H" "${w}x$h"
	fourccs=${KT_GST2V4L2[$fmt]}
	if [[ " $fourccs " == *" $OUT_FOURCC "* ]]; then
		pass "$tag: driver's pixel format $OUT_FOURCC carries $fmt"
	else
		fail "$tag: driver's pixel format '$OUT_FOURCC' does not carry $fmt ($fourccs)"
	fi
	case $mode in
	progressive) want_field=None ;;
	*) want_field=Interlaced ;;
	esac
	expect_eq "$tag: driver's field order" "$OUT_FIELD" "$want_field"
	if [ -n "$order" ]; then
		caps=$(grep -m1 -E 'GstFgrabSink:[^.]*\.GstPad:sink: caps = ' "$KT_LOG" | sed 's/.*: caps = //')
		info "caps: $caps"
		expect_eq "$tag: caps field-order is the standard's" "$(caps_field "$caps" field-order)" "$order"
	fi
}

require_element fgrabsink

section "vivid output node"
info "$(v4l2-ctl -d $OUT --info | grep -m1 'Card type')"
svideo=$(output_index S-Video) || fatal "vivid has no S-Video output ($(v4l2-ctl -d $OUT --list-outputs 2>&1 | grep Name | tr -s '\t ' ' '))"
hdmi=$(output_index HDMI) || fatal "vivid has no HDMI output"
info "S-Video is output $svideo, HDMI is output $hdmi"

section "S-Video, PAL: interlaced 720x576 at 25/1"
v4l2-ctl -d $OUT -o "$svideo" >/dev/null || fatal "cannot select output $svideo"
v4l2-ctl -d $OUT --set-standard=pal >/dev/null || fatal "cannot set PAL"
out_fmt $OUT
info "driver format: ${OUT_W}x$OUT_H $OUT_FOURCC $OUT_FIELD, bytesperline $OUT_BPL, sizeimage $OUT_SIZE"
expect_eq "PAL: the S-Video output takes" "${OUT_W}x$OUT_H $OUT_FIELD" "720x576 Interlaced"
sink_check svideo-pal 4 YUY2 720 576 interleaved 25/1 top-field-first

section "S-Video, NTSC: interlaced 720x480 at 30000/1001"
v4l2-ctl -d $OUT --set-standard=ntsc >/dev/null || fatal "cannot set NTSC"
out_fmt $OUT
info "driver format: ${OUT_W}x$OUT_H $OUT_FOURCC $OUT_FIELD, bytesperline $OUT_BPL, sizeimage $OUT_SIZE"
expect_eq "NTSC: the S-Video output takes" "${OUT_W}x$OUT_H $OUT_FIELD" "720x480 Interlaced"
sink_check svideo-ntsc 4 YUY2 720 480 interleaved 30000/1001 bottom-field-first

section "HDMI: progressive, scaled to 320x240"
v4l2-ctl -d $OUT -o "$hdmi" >/dev/null || fatal "cannot select output $hdmi"
out_fmt $OUT
info "driver format after selecting HDMI: ${OUT_W}x$OUT_H $OUT_FOURCC $OUT_FIELD, sizeimage $OUT_SIZE"
# Set a different size first, so the size after the run shows fgrabsink's S_FMT.
v4l2-ctl -d $OUT --set-fmt-video-out=width=640,height=480,pixelformat=UYVY >/dev/null ||
	fatal "cannot set 640x480 UYVY on HDMI"
sink_check hdmi-yuy2 6 YUY2 320 240 progressive 30/1
v4l2-ctl -d $OUT --set-fmt-video-out=width=640,height=480,pixelformat=YUYV >/dev/null ||
	fatal "cannot set 640x480 YUYV on HDMI"
sink_check hdmi-i420 6 I420 320 240 progressive 30/1

section "wrong direction: fgrabsink on vivid's capture node"
gst wrong-direction 30 videotestsrc num-buffers=2 ! video/x-raw,width=320,height=240 ! fgrabsink device=$CAP
expect_error "wrong direction"
expect_log "wrong direction: error says it is not an output device" \
	"ERROR: from element .*fgrabsink0: Device '$CAP' is not a video output device: it is a video capture node"

kt_finish
