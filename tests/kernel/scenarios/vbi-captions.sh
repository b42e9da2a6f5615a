#!/bin/bash
# Closed captions from vivid's VBI node (issue 24). vivid with a raw and sliced
# VBI capture node (node_types bits 2-3) generates CEA-608 captions on line 21
# of its TV and S-Video inputs under NTSC ("Hello world!" and "Closed captions
# test", vivid-vbi-gen.c) and WSS on line 23 under PAL. Checked here:
# - what the driver sends, read by v4l2-ctl from the sliced VBI node;
# - fgrabsrc on /dev/vbi0 (input TV, norm NTSC): closedcaption/x-cea-608
#   s334-1a caps at 30000/1001, two triplets a frame, vivid's texts;
# Every caption text is checked against vivid's two: under TCG vivid drops
# frames when a reader is late, and a dropped frame costs its character
# pair (cc-text.py check names the pairs lost), never adds or alters one.
# - NTSC: field 2's XDS time of day in frames 0-7 byte for byte the
#   fake's (vbi-records.c ntsc, the same minute);
# - PAL: vivid's teletext records (pages 100-159, "Page: 1xx Row: rr")
#   byte for byte the fake's on the same steps (vbi-records.c);
# - PAL: the "fgrab-wss" messages say the aspect ratio vivid announces, and
#   follow its "Standard Aspect Ratio" control (4:3, then 14:9);
# - the webcam input has no VBI: the error says so.
# vivid's node with raw and sliced VBI both (node_types=0x10d) is vbi-raw's:
# there read() takes the type of the queue the two share, which REQBUFS
# changes and S_FMT does not (Linux 5.14 on).
#@vivid: n_devs=1 node_types=0x109
#@v4l2loopback: none
# shellcheck source=../lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
# shellcheck source=../vbi-lib.sh
source "$KT_DIR/vbi-lib.sh"

export GST_DEBUG_NO_COLOR=1
require_element cccombiner
require_element x264enc
info "$(v4l2-ctl -d $VBI --info 2>&1 | grep -E 'Sliced VBI Capture|Read/Write' | tr -s ' ' | tr '\n' ';')"
vbi_select_ntsc_tv

section "what the driver sends (v4l2-ctl on the sliced VBI node)"
vbi_driver_captions 100 "$KT_WORK/ref.txt"
expect_vivid_captions "v4l2-ctl reads vivid's captions" "$KT_WORK/ref.txt"

section "NTSC: field 2's XDS time of day, vivid's and the fake's"
# vivid makes its XDS time of day at frame 0 from the wall clock and the
# kernel's time zone, and sends it over frames 0-7 (vivid-vbi-gen.c
# vivid_vbi_gen_set_time_of_day); the fake's sliced-vbi node from the same
# clock, zone 0.  The same steps on both (vbi-records.c ntsc), a second
# apart: equal, unless a minute ended between the two (then once more).
VBIREC=${FGRAB_VBI_RECORDS:?FGRAB_VBI_RECORDS not set}
FAKE_LIB=${FGRAB_FAKEV4L2:?FGRAB_FAKEV4L2 not set}
FAKE_VBI=/dev/fgrab-fake-vbi0
# xds_pairs FILE: field 2's pairs (record 1's data) of the first 10 frames
xds_pairs() {
	$KT_PYTHON -c '
import sys
lines = [l.split()[1] for l in open(sys.argv[1]) if l.startswith("cc ")]
print(" ".join(l[2 * 80:2 * 82] for l in lines[:10]))
' "$1"
}
for _ in 1 2; do
	"$VBIREC" $VBI 10 ntsc >"$KT_WORK/xds-vivid.txt" 2>"$KT_LOGS/xds-vivid.log" ||
		fail "vbi-records ntsc on vivid: exit status $?"
	LD_PRELOAD=$FAKE_LIB FAKEV4L2_DEVICES=$FAKE_VBI=sliced-vbi \
		"$VBIREC" $FAKE_VBI 10 ntsc >"$KT_WORK/xds-fake.txt" 2>"$KT_LOGS/xds-fake.log" ||
		fail "vbi-records ntsc on the fake: exit status $?"
	[ "$(head -1 "$KT_WORK/xds-vivid.txt" | cut -d' ' -f3)" = \
		"$(head -1 "$KT_WORK/xds-fake.txt" | cut -d' ' -f3)" ] && break
	info "a minute ended between the two reads: once more"
done
info "vivid: $(head -1 "$KT_WORK/xds-vivid.txt"): $(xds_pairs "$KT_WORK/xds-vivid.txt")"
info "fake:  $(head -1 "$KT_WORK/xds-fake.txt"): $(xds_pairs "$KT_WORK/xds-fake.txt")"
expect_eq "the kernel's time zone (the fake's is 0)" \
	"$(head -1 "$KT_WORK/xds-vivid.txt" | cut -d' ' -f5)" 0
expect_eq "field 2 of frames 0-9: vivid's XDS is the fake's" \
	"$(xds_pairs "$KT_WORK/xds-vivid.txt")" "$(xds_pairs "$KT_WORK/xds-fake.txt")"

section "fgrabsrc on the VBI node: s334-1a caption buffers"
gst vbi-ntsc 60 fgrabsrc device=$VBI input=1 norm=NTSC num-buffers=100 ! \
	filesink location="$KT_WORK/fgrab.s334"
expect_eq "gst-launch exit" "$KT_RC" 0
caps=$(src_caps)
info "caps: $caps"
expect_eq "caps name" "${caps%%,*}" "closedcaption/x-cea-608"
expect_eq "caps format" "$(caps_field "$caps" format)" "s334-1a"
expect_eq "caps framerate" "$(caps_field "$caps" framerate)" "30000/1001"
# two triplets a frame: line 21 of both fields
expect_eq "bytes of 100 frames" "$(stat -c %s "$KT_WORK/fgrab.s334")" $((100 * 6))
$CCTEXT s334 "$KT_WORK/fgrab.s334" >"$KT_WORK/fgrab.txt"
info "fgrabsrc pushed: $(captions "$KT_WORK/fgrab.txt")"
expect_vivid_captions "fgrabsrc's captions" "$KT_WORK/fgrab.txt"

section "PAL: vivid's teletext records and the fake's"
# The same steps (vbi-records.c: input TV, PAL, S_FMT of teletext and
# WSS, read()) on vivid's node and on the fake's sliced-vbi node; each
# frame names its page (1xx, xx = its sequence number modulo 60), so a
# frame vivid dropped under TCG shifts nothing: every vivid frame must be
# byte for byte the fake's frame of the same page, all 36 records.
"$VBIREC" $VBI 90 >"$KT_WORK/ttx-vivid.txt" 2>"$KT_LOGS/ttx-vivid.log" ||
	fail "vbi-records on vivid: exit status $?"
LD_PRELOAD=$FAKE_LIB FAKEV4L2_DEVICES=$FAKE_VBI=sliced-vbi \
	"$VBIREC" $FAKE_VBI 60 >"$KT_WORK/ttx-fake.txt" 2>"$KT_LOGS/ttx-fake.log" ||
	fail "vbi-records on the fake: exit status $?"
total=$(wc -l <"$KT_WORK/ttx-vivid.txt")
pages=$(cut -d' ' -f1 "$KT_WORK/ttx-vivid.txt" | sort -u | wc -l)
same=$(awk 'NR == FNR { fake[$0] = 1; next } $0 in fake { n++ } END { print n + 0 }' \
	"$KT_WORK/ttx-fake.txt" "$KT_WORK/ttx-vivid.txt")
info "vivid frames: $total ($pages pages); equal to the fake's frame of their page: $same"
info "first pages: $(cut -d' ' -f1 "$KT_WORK/ttx-vivid.txt" | head -12 | tr '\n' ' ')"
expect_eq "vivid frames read" "$total" 90
expect_eq "vivid's frames are the fake's, byte for byte" "$same" "$total"

section "PAL: WSS as fgrab-wss messages"
gst wss-4x3 60 -m fgrabsrc device=$VBI input=1 norm=PAL num-buffers=10 ! fakesink
expect_eq "gst-launch exit" "$KT_RC" 0
expect_eq "caps framerate" "$(caps_field "$(src_caps)" framerate)" "25/1"
expect_log "WSS 4:3 posted" 'fgrab-wss, wss=\(uint\)8, aspect-ratio=\(string\)"4:3\\ full\\ format"'
# menu item 2 of vivid's "Standard Aspect Ratio" is 14x9: WSS 0x1
v4l2-ctl -d $VID -c standard_aspect_ratio=2 || fatal "cannot set vivid's aspect ratio"
gst wss-14x9 60 -m fgrabsrc device=$VBI input=1 norm=PAL num-buffers=10 ! fakesink
expect_eq "gst-launch exit" "$KT_RC" 0
expect_log "WSS 14:9 posted" 'fgrab-wss, wss=\(uint\)1, aspect-ratio=\(string\)"14:9\\ letterbox\\ centre"'

section "errors"
gst no-vbi 60 fgrabsrc device=$VBI input=0 num-buffers=1 ! fakesink
expect_eq "webcam input fails" "$KT_RC" 1
expect_log "the error says why" "has no sliced VBI on its current input"

kt_finish
