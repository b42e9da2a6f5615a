#!/bin/bash
# Video and closed captions recorded together from vivid (issue 24): two
# fgrabsrc, one on the video node and one on the sliced VBI node, combined by
# cccombiner, the captions written into H.264 by x264enc, Matroska. The
# captions are then read back from the file twice (GStreamer: h264parse,
# ccextractor; FFmpeg: its caption decoder) and compared with what fgrabsrc
# pushed, pair by pair, and with what the driver sends (vivid-vbi-gen.c:
# "Hello world!" and "Closed captions test", read here by v4l2-ctl); FFmpeg's
# captions with what a caption decoder shows for the pairs recorded.
# Stages compared (field-1 byte pairs that are not padding, cc-text.py pairs):
#   in.s334        what fgrabsrc pushed (tee before the caption pad)
#   combined.s334  what cccombiner put on the video frames (tee after it)
#   file.s334      what the recording carries (read back by GStreamer)
#@vivid: n_devs=1 node_types=0x109
#@v4l2loopback: none
# shellcheck source=../lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
# shellcheck source=../vbi-lib.sh
source "$KT_DIR/vbi-lib.sh"

FRAMES=${FGRAB_REC_FRAMES:-150}
export GST_DEBUG_NO_COLOR=1
require_element cccombiner
require_element ccextractor
require_element x264enc
vbi_select_ntsc_tv

# the branch that writes the captions of captioned video as s334-1a; its
# filesink takes a location= after it
EXTRACT_S334=(ccextractor ! ccconverter ! "closedcaption/x-cea-608,format=s334-1a" ! filesink)

section "what the driver sends (v4l2-ctl on the sliced VBI node)"
vbi_driver_captions "$FRAMES" "$KT_WORK/driver.txt"

section "recording: video and captions (cccombiner, x264enc, Matroska)"
REC=$KT_WORK/rec.mkv
GST_DEBUG=fgrabsrc:4,cccombiner:4 gst rec 200 -e \
	fgrabsrc device=$VBI input=1 norm=NTSC num-buffers="$FRAMES" ! tee name=ti ! \
	queue ! filesink location="$KT_WORK/in.s334" ti. ! queue ! \
	ccconverter ! closedcaption/x-cea-708,format=cc_data ! c.caption \
	fgrabsrc device=$VID input=1 norm=NTSC num-buffers="$FRAMES" ! \
	video/x-raw,width=160,height=120 ! \
	queue max-size-buffers=0 max-size-bytes=0 max-size-time=0 ! \
	cccombiner name=c ! tee name=tc ! queue ! "${EXTRACT_S334[@]}" location="$KT_WORK/combined.s334" \
	tc. ! queue ! videoconvert ! \
	x264enc speed-preset=ultrafast tune=zerolatency key-int-max=30 ! \
	h264parse ! matroskamux ! filesink location="$REC"
expect_eq "recording exit" "$KT_RC" 0
grep -E 'frames captured|lost|cccombiner' "$KT_LOG" | sed 's/^/      /' | head -20 || true
[ "$KT_RC" = 0 ] || show_log "$KT_LOG"

section "the captions read back from the recording"
gst readback 60 filesrc location="$REC" ! matroskademux ! h264parse ! \
	"${EXTRACT_S334[@]}" location="$KT_WORK/file.s334"
expect_eq "read-back exit" "$KT_RC" 0
set +e
timeout -k 5 60 ffmpeg -nostdin -y -loglevel error -f lavfi \
	-i "movie=${REC}[out0+subcc]" -map 0:s -c:s srt "$KT_WORK/rec.srt" \
	>"$KT_LOGS/ffmpeg.log" 2>&1
rc=$?
set -e
expect_eq "ffmpeg caption extraction exit" "$rc" 0

for stage in in combined file; do
	$CCTEXT pairs "$KT_WORK/$stage.s334" >"$KT_WORK/$stage.pairs"
	$CCTEXT s334 "$KT_WORK/$stage.s334" >"$KT_WORK/$stage.txt"
	info "$stage: $(wc -l <"$KT_WORK/$stage.pairs") pairs: $(captions "$KT_WORK/$stage.txt")"
done
# FFmpeg's SRT: the caption lines without its styling
grep -v -e '-->' -e '^[0-9]*\r*$' "$KT_WORK/rec.srt" |
	sed -e 's/<[^>]*>//g' -e 's/{[^}]*}//g' -e 's/\r$//' >"$KT_WORK/ffmpeg.txt"
info "ffmpeg: $(captions "$KT_WORK/ffmpeg.txt")"
expect_vivid_captions "the recording's captions are vivid's" "$KT_WORK/file.txt"
# the check above allows a caption whole pairs short (a frame the driver
# dropped under TCG); those that came whole must be texts the driver sent
same=$(grep -cxF -f "$KT_WORK/driver.txt" "$KT_WORK/file.txt" || true)
expect_ge "captions recorded as v4l2-ctl read them" "$same" 1
# FFmpeg's decoder shows what was loaded between two ends of caption: where
# vivid dropped a caption's end, the caption runs on into the next. So
# what it must read is what such a decoder makes of the pairs the file
# carries (cc-text.py shown), not the driver's texts: this holds for
# whatever frames were lost, and still fails on a pair FFmpeg reads
# differently, misses or adds.
$CCTEXT shown "$KT_WORK/file.s334" >"$KT_WORK/file-shown.txt"
info "a decoder shows: $(captions "$KT_WORK/file-shown.txt")"
expect_eq "FFmpeg reads the same captions" "$(captions "$KT_WORK/ffmpeg.txt")" "$(captions "$KT_WORK/file-shown.txt")"
for stage in combined file; do
	if diff "$KT_WORK/in.pairs" "$KT_WORK/$stage.pairs" >"$KT_WORK/$stage.diff"; then
		pass "$stage: the pairs fgrabsrc pushed, none lost, none added"
	else
		fail "$stage: pairs differ from fgrabsrc's"
		sed 's/^/      /' "$KT_WORK/$stage.diff" | head -30
	fi
done

kt_finish
