#!/bin/bash
# fgrabsrc on vivid's webcam input (input 0): every vivid format that maps to
# GStreamer caps, several sizes, exact buffer counts with num-buffers, and frames
# that are whole (byte-identical to a reference frame the same driver delivers
# through mmap streaming with v4l2-ctl, with the still test pattern).
#@vivid: n_devs=1 node_types=0x101
#@v4l2loopback: none
# shellcheck source=../lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"

DEV=/dev/video0
require_element fgrabsrc
v4l2-ctl -d $DEV -i 0 >/dev/null || fatal "cannot select vivid input 0"
vivid_still

# capture_check TAG FORMAT WIDTH HEIGHT RATE N: captures N buffers through
# multifilesink and checks count, caps, the fourcc the driver runs, frame sizes,
# identical frames and equality with a mmap reference of the same fourcc.
capture_check() {
	local tag=$1 fmt=$2 w=$3 h=$4 rate=$5 n=$6 dir caps ref refsum
	dir=$(fresh_dir "$tag")
	gst "$tag" 60 fgrabsrc name=src device=$DEV num-buffers="$n" \
		! "video/x-raw,format=$fmt,width=$w,height=$h,framerate=$rate" \
		! multifilesink location="$dir/frame-%05d.raw"
	if [ "$KT_RC" -ne 0 ]; then
		fail "$tag: gst-launch exit status $KT_RC"
		show_log "$KT_LOG"
		return 0
	fi
	frames "$dir"
	expect_eq "$tag: buffers written with num-buffers=$n" "$FR_N" "$n"
	caps=$(src_caps "$KT_LOG")
	expect_eq "$tag: caps format/size/rate" \
		"$(caps_field "$caps" format) $(caps_field "$caps" width)x$(caps_field "$caps" height) $(caps_field "$caps" framerate)" \
		"$fmt ${w}x${h} $rate"
	expect_eq "$tag: caps interlace-mode" "$(caps_field "$caps" interlace-mode)" progressive
	if [ -n "$(caps_field "$caps" colorimetry)" ] && [ -n "$(caps_field "$caps" pixel-aspect-ratio)" ]; then
		pass "$tag: caps carry colorimetry and pixel-aspect-ratio"
	else
		fail "$tag: caps lack colorimetry or pixel-aspect-ratio: $caps"
	fi
	drv_fmt $DEV
	info "driver runs fourcc '$DRV_FOURCC' ${DRV_W}x$DRV_H, bytesperline $DRV_BPL, sizeimage $DRV_SIZE"
	if [ -n "${KT_GST2V4L2[$fmt]:-}" ]; then
		case " ${KT_GST2V4L2[$fmt]} " in
		*" $DRV_FOURCC "*) pass "$tag: driver fourcc $DRV_FOURCC carries $fmt" ;;
		*) fail "$tag: driver runs fourcc $DRV_FOURCC for GStreamer $fmt (expected one of ${KT_GST2V4L2[$fmt]})" ;;
		esac
	else
		info "no independent fourcc expectation for $fmt"
	fi
	expect_eq "$tag: every buffer has the driver's image size" "$FR_SIZES" "$DRV_SIZE"
	expect_eq "$tag: still pattern gives identical frames (none torn or partial)" "$(wc -w <<<"$FR_SUMS")" 1
	# Reference: one frame of the same fourcc and size through mmap streaming.
	ref=$KT_WORK/$tag.ref
	if v4l2-ctl -d $DEV --set-fmt-video="width=$w,height=$h,pixelformat=${DRV_FOURCC//_/ }" \
		--stream-mmap --stream-count=1 --stream-to="$ref" >"$KT_LOGS/$tag-ref.log" 2>&1 && [ -s "$ref" ]; then
		refsum=$(md5sum <"$ref")
		expect_eq "$tag: frames equal the driver's mmap reference frame" "$FR_SUMS" "${refsum%% *}"
	else
		fail "$tag: could not take a mmap reference frame with v4l2-ctl"
		show_log "$KT_LOGS/$tag-ref.log" 5
	fi
}

section "formats fgrabsrc offers for vivid's webcam input"
"$KT_PYTHON" "$KT_PROBE" formats $DEV >"$KT_LOGS/formats.txt" 2>&1 || {
	show_log "$KT_LOGS/formats.txt"
	fatal "fgrab-probe formats failed"
}
mapfile -t offered < <(sed -n 's/^format=//p' "$KT_LOGS/formats.txt")
info "device-name: $(sed -n 's/^device-name=//p' "$KT_LOGS/formats.txt")"
info "offered (${#offered[@]}): ${offered[*]}"
expect_eq "device-name is vivid's card name" "$(sed -n 's/^device-name=//p' "$KT_LOGS/formats.txt")" \
	"$(v4l2-ctl -d $DEV --info | sed -n 's/.*Card type *: *//p')"

# Every vivid fourcc with a GStreamer equivalent must be offered.
vivid_fourccs=()
while IFS= read -r line; do
	[[ $line =~ \[[0-9]+\]:\ \'([^\']*)\' ]] && vivid_fourccs+=("${BASH_REMATCH[1]// /_}")
done < <(v4l2-ctl -d $DEV --list-formats)
info "vivid enumerates ${#vivid_fourccs[@]} fourccs"
for g in "${!KT_GST2V4L2[@]}"; do
	for f in ${KT_GST2V4L2[$g]}; do
		for v in "${vivid_fourccs[@]}"; do
			[ "$v" = "$f" ] || continue
			case " ${offered[*]} " in
			*" $g "*) pass "vivid fourcc $f is offered as $g" ;;
			*) fail "vivid fourcc $f has GStreamer format $g, which fgrabsrc does not offer" ;;
			esac
		done
	done
done

section "every offered format at 320x180, 3 buffers"
for g in "${offered[@]}"; do
	capture_check "fmt-$g" "$g" 320 180 30/1 3
done

section "sizes (YUY2, I420)"
capture_check size-YUY2-640x360 YUY2 640 360 30/1 5
capture_check size-YUY2-1280x720 YUY2 1280 720 10/1 4
capture_check size-I420-640x480 I420 640 480 25/1 4
capture_check size-UYVY-1920x1080 UYVY 1920 1080 5/1 2

section "exact count over a longer run"
capture_check count-YUY2-60 YUY2 320 180 60/1 60

kt_finish
