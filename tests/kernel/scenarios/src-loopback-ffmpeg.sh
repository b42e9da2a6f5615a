#!/bin/bash
# fgrabsrc on v4l2loopback with FFmpeg as the writer: FFmpeg writes a
# deterministic lavfi test source (every frame different: it shows a frame counter)
# with write(); fgrabsrc captures N frames. Each captured frame must be byte-equal
# to one of the frames FFmpeg's framemd5 muxer computes for the same source and
# pixel format, in increasing order (no frame twice, none reordered), with the
# payload size (not v4l2loopback's page-rounded sizeimage); caps must match the
# writer's format and the driver's rate.
# The order is checked from the CATCHUP-th frame on: a reader that starts
# behind the writer (a slow start on a loaded host) is handed whatever ring
# slot v4l2loopback 0.12 lands on while it catches up, e.g. source frames
# 97 100 99 100 101 ... (seen with the host's two cores saturated); from then
# on read() follows the writer frame by frame.
# It also reports fgrabsrc's empty reads (read() that found no frame yet) per
# frame, and checks that poll() woke the reader: v4l2loopback 0.12 wakes
# only a reader that called VIDIOC_STREAMON(CAPTURE), which fgrabsrc does
# there (and only there: 0.13 and later wake every reader).
#@vivid: none
#@v4l2loopback: devices=1 video_nr=10 card_label=loop
# shellcheck source=../lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"

DEV=/dev/video10
N=30
W=320 H=240 RATE=30
REF_FRAMES=450 # 15 s of source; the writer stops there too
SRC="testsrc=size=${W}x$H:rate=$RATE"
require_element fgrabsrc

section "reference: FFmpeg framemd5 of $REF_FRAMES frames of $SRC as yuyv422"
t0=$(now_ms)
ffmpeg -nostdin -loglevel error -f lavfi -i "$SRC" -frames:v $REF_FRAMES -pix_fmt yuyv422 \
	-f framemd5 "$KT_WORK/ref.framemd5" >"$KT_LOGS/ffmpeg-ref.log" 2>&1 ||
	fatal "ffmpeg framemd5 failed: $(tail -n3 "$KT_LOGS/ffmpeg-ref.log")"
declare -A REF_INDEX=()
nref=0
while IFS=, read -r _ pts _ _ size md5; do
	[[ $pts =~ ^\ *[0-9]+$ ]] || continue
	md5=${md5// /}
	REF_INDEX[$md5]=$((10#${pts// /}))
	nref=$((nref + 1))
	refsize=${size// /}
done <"$KT_WORK/ref.framemd5"
info "$nref reference frames of ${refsize} bytes in $(($(now_ms) - t0)) ms"
expect_eq "reference frames are all distinct" "${#REF_INDEX[@]}" "$nref"

section "FFmpeg writes to $DEV, fgrabsrc captures $N frames"
ffmpeg -nostdin -loglevel error -re -f lavfi -i "$SRC" -frames:v $REF_FRAMES -pix_fmt yuyv422 \
	-f v4l2 $DEV >"$KT_LOGS/ffmpeg-writer.log" 2>&1 &
writer=$!
ready=0
for _ in $(seq 50); do
	drv_fmt $DEV
	if [ "$DRV_W" = $W ]; then
		ready=1
		break
	fi
	sleep 0.2
done
[ "$ready" -eq 1 ] || {
	show_log "$KT_LOGS/ffmpeg-writer.log"
	fatal "the FFmpeg writer did not configure $DEV within 10 s"
}
info "writer configured $DEV: ${DRV_W}x$DRV_H '$DRV_FOURCC' bytesperline $DRV_BPL sizeimage $DRV_SIZE"
dir=$(fresh_dir loop)
# the debug log in a file of its own, never mixed into gst-launch's output
dbg=$KT_LOGS/loop-capture-debug.log
GST_DEBUG=fgrabsrc:4,fgrabnode:5 GST_DEBUG_FILE=$dbg \
	gst loop-capture 40 fgrabsrc name=src device=$DEV num-buffers=$N ! multifilesink location="$dir/frame-%05d.raw"
expect_eq "gst-launch exit status" "$KT_RC" 0
[ "$KT_RC" -eq 0 ] || show_log "$KT_LOG"
drv_parm $DEV
writer_alive=no
kill -0 "$writer" 2>/dev/null && writer_alive=yes
kill "$writer" 2>/dev/null || true
wait "$writer" 2>/dev/null || true
info "writer still running at the end of the capture: $writer_alive"

# "N frames captured, ..., E empty reads" (fgrabsrc's stop)
stats=$(grep -o '[0-9]* frames captured, .*, [0-9]* empty reads' "$dbg" | tail -n1)
if [[ $stats =~ ^([0-9]+)\ frames\ captured.*\ ([0-9]+)\ empty\ reads$ ]]; then
	pass "fgrabsrc counted its empty reads"
	poll=no
	grep -q 'poll reports data' "$dbg" && poll=yes
	# 0.12.7 has no MODULE_VERSION (modinfo says nothing): the package's
	version=$(dpkg-query -W -f='${Version}' v4l2loopback-dkms 2>/dev/null || echo "?")
	info "EMPTY-READS v4l2loopback $version: ${BASH_REMATCH[2]} empty reads for ${BASH_REMATCH[1]} frames ($(awk -v e="${BASH_REMATCH[2]}" -v f="${BASH_REMATCH[1]}" 'BEGIN { printf "%.2f", f ? e / f : 0 }') per frame); poll woke the reader: $poll"
	expect_eq "poll woke the reader" "$poll" yes
	streamon=no
	grep -q 'VIDIOC_STREAMON(CAPTURE) on v4l2loopback: poll wakes' "$dbg" && streamon=yes
	case $version in
	0.12.*) expect_eq "0.12 took the reader's STREAMON(CAPTURE)" "$streamon" yes ;;
	*) expect_eq "$version refused the reader's STREAMON(CAPTURE) (no REQBUFS)" "$streamon" no ;;
	esac
else
	fail "fgrabsrc's stop line with the empty reads is not in $dbg"
fi

caps=$(src_caps "$KT_LOG")
info "caps: $caps"
expect_eq "caps format/size" "$(caps_field "$caps" format) $(caps_field "$caps" width)x$(caps_field "$caps" height)" "YUY2 ${W}x$H"
expect_eq "caps framerate is the driver's G_PARM rate" "$(caps_field "$caps" framerate)" "$DRV_FPS"
expect_eq "caps interlace-mode" "$(caps_field "$caps" interlace-mode)" progressive

frames "$dir"
expect_eq "buffers written with num-buffers=$N" "$FR_N" "$N"
expect_eq "buffer size is the payload (bytesperline x height)" "$FR_SIZES" "$((DRV_BPL * H))"
expect_eq "buffer size equals FFmpeg's frame size" "$FR_SIZES" "$refsize"
CATCHUP=3
matched=0 ordered=1 prev=-1 idx=() unknown=0 k=0
declare -A steady=()
for m in $FR_LIST; do
	k=$((k + 1))
	if [ -n "${REF_INDEX[$m]:-}" ]; then
		matched=$((matched + 1))
		i=${REF_INDEX[$m]}
		idx+=("$i")
		if [ "$k" -gt "$CATCHUP" ]; then
			[ "$i" -gt "$prev" ] || ordered=0
			steady[$m]=1
		fi
		prev=$i
	else
		unknown=$((unknown + 1))
		idx+=("?")
	fi
done
info "captured frames are source frames: ${idx[*]}"
expect_eq "every captured frame equals one of FFmpeg's frames" "$matched" "$FR_N"
expect_eq "captured frames come in strictly increasing source order (from frame $CATCHUP on)" "$ordered" 1
if [ "$FR_N" -gt 0 ]; then
	expect_eq "no frame delivered twice (from frame $CATCHUP on)" "${#steady[@]}" "$((FR_N - CATCHUP))"
fi

kt_finish
