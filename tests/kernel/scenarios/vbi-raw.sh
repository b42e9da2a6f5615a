#!/bin/bash
# Raw VBI from vivid's VBI nodes. vivid's node_types bits 2-3 choose its VBI
# capture node: 1 raw VBI only, 2 sliced only (vbi-captions: 0x109), 3 both
# (Documentation/admin-guide/media/vivid.rst). Two instances here: 0x105
# (video capture, raw VBI, video output) and 0x10d (the same with raw and
# sliced VBI on one node). vivid_g_fmt_vbi_cap() (vivid-vbi-cap.c) answers
# 27 MHz, offset 24, 1440 GREY samples a line and, under NTSC, 12 lines a
# field from lines 10 and 273 (18 from 6 and 319 under PAL); flags 0 unless
# its "Interlaced VBI Format" control is set; TRY_FMT and S_FMT answer the
# same whatever is asked. A frame: 0x10 everywhere but the CC waveform
# (0x10/0xc0) on line 21 of each field, row 11 and 23 of the frame.
# Checked here:
# - the raw-only node: fgrabsrc's caps carry what v4l2-ctl --get-fmt-vbi
#   reports, N buffers of (count1 + count2) x samples bytes arrive at
#   30000/1001, line 21 holds the CC waveform;
# - the node with both: its caps offer sliced first, and by default vivid's
#   captions arrive; a video/x-raw caps filter then picks raw lines of the
#   same size.  Since Linux 5.14 the two share one vb2 queue whose type
#   only REQBUFS/CREATE_BUFS change (vivid-core.c vidioc_reqbufs,
#   vb2_queue_change_type), not S_FMT, and read() takes the queue's type:
#   raw at first (vivid_create_queue).  fgrabsrc asks REQBUFS of no buffers
#   of the type it set (fgrab_vbi_select_queue) each way.
#@vivid: n_devs=2 node_types=0x105,0x10d
#@v4l2loopback: none
# shellcheck source=../lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"

N=30
export GST_DEBUG_NO_COLOR=1
require_element fgrabsrc

# vbi_kind DEV: "raw", "sliced" or "both", from the node's device caps
# (VBI_CAPTURE 0x10, SLICED_VBI_CAPTURE 0x40)
vbi_kind() {
	local out line hex=0
	out=$(v4l2-ctl -d "$1" --info 2>&1) || true
	while IFS= read -r line; do
		[[ $line =~ Device\ Caps\ *:\ *0x([0-9a-fA-F]+) ]] && hex=${BASH_REMATCH[1]}
	done <<<"$out"
	case $(((16#$hex & 0x10) != 0))$(((16#$hex & 0x40) != 0)) in
	10) echo raw ;;
	01) echo sliced ;;
	11) echo both ;;
	*) echo none ;;
	esac
}

RAW="" BOTH=""
for dev in /dev/vbi*; do
	[ -c "$dev" ] || continue
	kind=$(vbi_kind "$dev")
	info "$dev: $kind VBI"
	[ "$kind" = raw ] && RAW=$dev
	[ "$kind" = both ] && BOTH=$dev
done
[ -n "$RAW" ] || fatal "no raw-only VBI node: vivid without node_types bits 2-3 = 1"
[ -n "$BOTH" ] || fatal "no VBI node with raw and sliced VBI: vivid without node_types bits 2-3 = 3"

# vivid refuses a new input or standard while one of its queues is busy
for dev in "$RAW" "$BOTH"; do
	v4l2-ctl -d "$dev" -i 1 -s ntsc >/dev/null || fatal "cannot select TV/NTSC on $dev"
done

# fmt_value FILE LABEL: the number (or word) after "LABEL :" in v4l2-ctl's output
fmt_value() { sed -n "s/^[[:space:]]*$2 *: *'\\{0,1\\}\\([0-9A-Za-z]*\\).*/\\1/p" "$1" | head -n1; }

section "what the driver reports (v4l2-ctl --get-fmt-vbi on $RAW)"
v4l2-ctl -d "$RAW" --get-fmt-vbi >"$KT_WORK/fmt.txt" 2>&1 || fatal "--get-fmt-vbi failed"
sed 's/^/      /' "$KT_WORK/fmt.txt"
RATE=$(fmt_value "$KT_WORK/fmt.txt" "Sampling Rate")
OFFSET=$(fmt_value "$KT_WORK/fmt.txt" "Offset")
SPL=$(fmt_value "$KT_WORK/fmt.txt" "Samples per Line")
SFMT=$(fmt_value "$KT_WORK/fmt.txt" "Sample Format")
START1=$(fmt_value "$KT_WORK/fmt.txt" "Start 1st Field")
COUNT1=$(fmt_value "$KT_WORK/fmt.txt" "Count 1st Field")
START2=$(fmt_value "$KT_WORK/fmt.txt" "Start 2nd Field")
COUNT2=$(fmt_value "$KT_WORK/fmt.txt" "Count 2nd Field")
expect_eq "sample format" "$SFMT" "GREY"
FRAME=$(((COUNT1 + COUNT2) * SPL))
info "frame: ($COUNT1 + $COUNT2) x $SPL = $FRAME bytes"

# expect_raw_caps DESC: the caps of the last run are the driver's format
expect_raw_caps() {
	local caps
	caps=$(src_caps)
	info "caps: $caps"
	expect_eq "$1: caps name" "${caps%%,*}" "video/x-raw"
	expect_eq "$1: format" "$(caps_field "$caps" format)" "GRAY8"
	expect_eq "$1: width" "$(caps_field "$caps" width)" "$SPL"
	expect_eq "$1: height" "$(caps_field "$caps" height)" "$((COUNT1 + COUNT2))"
	expect_eq "$1: framerate" "$(caps_field "$caps" framerate)" "30000/1001"
	expect_eq "$1: vbi-sampling-rate" "$(caps_field "$caps" vbi-sampling-rate)" "$RATE"
	expect_eq "$1: vbi-offset" "$(caps_field "$caps" vbi-offset)" "$OFFSET"
	expect_eq "$1: vbi-start1" "$(caps_field "$caps" vbi-start1)" "$START1"
	expect_eq "$1: vbi-start2" "$(caps_field "$caps" vbi-start2)" "$START2"
	expect_eq "$1: vbi-count1" "$(caps_field "$caps" vbi-count1)" "$COUNT1"
	expect_eq "$1: vbi-count2" "$(caps_field "$caps" vbi-count2)" "$COUNT2"
	expect_eq "$1: vbi-flags" "$(caps_field "$caps" vbi-flags)" "0"
}

# expect_raw_frames DESC FILE: N buffers of FRAME bytes in the log and FILE
expect_raw_frames() {
	expect_eq "$1: buffers of $FRAME bytes" \
		"$(grep -c "identity0:sink) ($FRAME bytes" "$KT_LOG")" "$N"
	expect_eq "$1: bytes of $N frames" "$(stat -c %s "$2")" $((N * FRAME))
}

section "fgrabsrc on the raw VBI node"
gst raw-ntsc 120 fgrabsrc device="$RAW" input=1 norm=NTSC num-buffers=$N ! \
	identity silent=false ! filesink location="$KT_WORK/raw.vbi"
expect_eq "gst-launch exit" "$KT_RC" 0
expect_raw_caps "raw node"
expect_raw_frames "raw node" "$KT_WORK/raw.vbi"
# rows 11 and 23: line 21 of each field (start 10 and 273), vivid's CC
# waveform; row 0 blank
wave=$($KT_PYTHON -c '
import sys
spl, frame = int(sys.argv[2]), int(sys.argv[3])
data = open(sys.argv[1], "rb").read()[-frame:]
row = lambda r: data[r * spl:(r + 1) * spl]
print(0xc0 in row(11), 0xc0 in row(23), set(row(0)) == {0x10})
' "$KT_WORK/raw.vbi" "$SPL" "$FRAME")
expect_eq "CC waveform on line 21 of both fields, line 10 blank" "$wave" "True True True"

section "the node with raw and sliced VBI: video/x-raw picks raw"
gst both-cc 60 fgrabsrc device="$BOTH" input=1 norm=NTSC num-buffers=100 ! \
	filesink location="$KT_WORK/both.s334"
expect_eq "gst-launch exit (default caps)" "$KT_RC" 0
expect_eq "default: sliced captions" "$(src_caps | cut -d, -f1)" "closedcaption/x-cea-608"
expect_no_log "every record one of a service" "no service"
expect_eq "bytes of 100 frames (line 21 of both fields)" \
	"$(stat -c %s "$KT_WORK/both.s334")" $((100 * 6))
$KT_PYTHON "$KT_DIR/cc-text.py" s334 "$KT_WORK/both.s334" >"$KT_WORK/both.txt"
info "fgrabsrc pushed: $(tr '\n' '|' <"$KT_WORK/both.txt")"
set +e
out=$($KT_PYTHON "$KT_DIR/cc-text.py" check "$KT_WORK/both.txt" 2>&1)
rc=$?
set -e
printf '%s\n' "$out" | sed 's/^/      /'
expect_eq "vivid's captions from the node with both" "$rc" 0
gst both-raw 120 fgrabsrc device="$BOTH" input=1 norm=NTSC num-buffers=$N ! \
	video/x-raw ! identity silent=false ! filesink location="$KT_WORK/both.vbi"
expect_eq "gst-launch exit (video/x-raw)" "$KT_RC" 0
expect_raw_caps "node with both"
expect_raw_frames "node with both" "$KT_WORK/both.vbi"

kt_finish
