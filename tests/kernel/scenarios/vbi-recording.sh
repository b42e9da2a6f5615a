#!/bin/bash
# NOT REGISTERED in tests/kernel/meson.build yet: under TCG on a loaded host
# the recording loses and repeats caption pairs (seen: FFmpeg read back
# "ClosedClosed ctions" where fgrabsrc gave "Closed ctions "; vivid dropped
# frames of both nodes), so its check does not pass reliably. Run it alone:
#   tests/kernel/vm.sh run tests/kernel/scenarios/vbi-recording.sh
# Where the repetition comes from (ccconverter's s334-1a to cc_data at
# 30000/1001, cccombiner's scheduling, videorate) is not found yet.
#
# Closed captions from vivid's VBI node (issue 24), recorded with the video. vivid with a raw and sliced
# VBI capture node (node_types bits 2-3) generates CEA-608 captions on line 21
# of its TV and S-Video inputs under NTSC ("Hello world!" and "Closed captions
# test", vivid-vbi-gen.c) and WSS on line 23 under PAL. Checked here:
# - what the driver sends, read by v4l2-ctl from the sliced VBI node;
# - fgrabsrc on /dev/vbi0 (input TV, norm NTSC): closedcaption/x-cea-608
#   s334-1a caps at 30000/1001, two triplets a frame, vivid's texts;
# (The recording with the video node, cccombiner and FFmpeg's decoder is
# vbi-recording.sh, not yet registered: see there.)
# Every caption text is checked against vivid's two: under TCG vivid drops
# frames when a reader is late, and a dropped frame costs its character
# pair (cc-text.py check names the pairs lost), never adds or alters one.
# - PAL: the "fgrab-wss" messages say the aspect ratio vivid announces, and
#   follow its "Standard Aspect Ratio" control (4:3, then 14:9);
# - the webcam input has no VBI: the error says so.
# vivid's node with raw and sliced VBI both (node_types=0x10d) is not used:
# on this kernel its read() gives raw VBI samples even after S_FMT of sliced
# VBI (a plain S_FMT + read() shows the same), which fgrabsrc reports as
# records no service has.
#@vivid: n_devs=1 node_types=0x109
#@v4l2loopback: none
# shellcheck source=../lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"

VID=/dev/video0
VBI=/dev/vbi0
CCTEXT="$KT_PYTHON $KT_DIR/cc-text.py"
export GST_DEBUG_NO_COLOR=1
require_element fgrabsrc
require_element cccombiner
require_element x264enc
[ -c "$VBI" ] || fatal "$VBI missing: vivid without its VBI capture node"
info "$(v4l2-ctl -d $VBI --info 2>&1 | grep -E 'Sliced VBI Capture|Read/Write' | tr -s ' ' | tr '\n' ';')"

# both nodes on the TV input under NTSC before anything streams (vivid
# refuses a new input or standard while one of its queues is busy)
v4l2-ctl -d $VID -i 1 -s ntsc >/dev/null || fatal "cannot select TV/NTSC on $VID"

# captions FILE: the caption texts of a cc-text.py output, joined by '|'
captions() { tr '\n' '|' <"$1" | sed 's/|$//'; }

# expect_vivid_captions DESC FILE: FILE's captions are vivid's two, at least
# one whole; a frame vivid dropped under TCG (the reader was late) costs a
# caption a character pair, which cc-text.py check names
expect_vivid_captions() {
	local out rc
	set +e
	out=$($CCTEXT check "$2" 2>&1)
	rc=$?
	set -e
	printf '%s\n' "$out" | sed 's/^/      /'
	if [ "$rc" = 0 ]; then pass "$1"; else fail "$1"; fi
}

v4l2-ctl -d $VBI --set-fmt-sliced-vbi=cc >/dev/null

section "video and captions recorded together (cccombiner, x264enc, Matroska)"
REC=$KT_WORK/rec.mkv
# videorate fills the video frames vivid drops under TCG with copies:
# cccombiner puts a caption frame on the video frame of its time, and one
# without a video frame would be lost
GST_DEBUG=fgrabsrc:4 gst rec 200 -e \
	fgrabsrc device=$VBI input=1 norm=NTSC num-buffers=100 ! tee name=t ! \
	queue ! filesink location="$KT_WORK/rec-in.s334" t. ! queue ! \
	ccconverter ! closedcaption/x-cea-708,format=cc_data ! c.caption \
	fgrabsrc device=$VID input=1 norm=NTSC num-buffers=100 ! \
	video/x-raw,width=160,height=120 ! videorate ! \
	queue max-size-buffers=0 max-size-bytes=0 max-size-time=0 ! \
	cccombiner name=c ! videoconvert ! \
	x264enc speed-preset=ultrafast tune=zerolatency key-int-max=30 ! \
	h264parse ! matroskamux ! filesink location="$REC"
expect_eq "recording exit" "$KT_RC" 0
grep -E 'frames captured' "$KT_LOG" | sed 's/.*fgrabsrc[^ ]* /      /' || true
[ "$KT_RC" = 0 ] || show_log "$KT_LOG"
set +e
timeout -k 5 60 ffmpeg -nostdin -y -loglevel error -f lavfi \
	-i "movie=${REC}[out0+subcc]" -map 0:s -c:s srt "$KT_WORK/rec.srt" \
	>"$KT_LOGS/ffmpeg.log" 2>&1
rc=$?
set -e
expect_eq "ffmpeg caption extraction exit" "$rc" 0
$CCTEXT srt "$KT_WORK/rec.srt" >"$KT_WORK/rec.txt"
$CCTEXT s334 "$KT_WORK/rec-in.s334" >"$KT_WORK/rec-in.txt"
RECORDED=$(captions "$KT_WORK/rec.txt")
info "fgrabsrc gave the recording:    $(captions "$KT_WORK/rec-in.txt")"
info "recording carries (FFmpeg):     $RECORDED"
expect_vivid_captions "recorded captions" "$KT_WORK/rec.txt"
set +e
$CCTEXT within "$KT_WORK/rec-in.txt" "$KT_WORK/rec.txt"
rc=$?
set -e
expect_eq "the recording's captions are fgrabsrc's, in order" "$rc" 0

kt_finish
