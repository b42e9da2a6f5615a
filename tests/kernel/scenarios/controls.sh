#!/bin/bash
# Controls through extra-controls (fgrabsrc and fgrabsink) on vivid and
# v4l2loopback, each read back from a second handle with v4l2-ctl -C while the
# pipeline streams. vivid's capture node has a control of every type (integer,
# boolean, 64-bit integer, menu with a skipped item, integer menu, string,
# bitmask, button, read-only): set at open, they must read back in v4l2-ctl
# and in the property; changed while playing, the new values must reach the
# driver at once. Refusals (no such control, out of range, read-only, an item
# the menu skips, a string too short) are warnings that name the control and
# why, while the rest is set and frames flow. A control vivid holds while it
# streams (enable_capture_cropping) gives the busy warning when changed live.
# The colour balance properties set the picture controls at open; the
# GstColorBalance interface lists vivid's channels with their ranges and
# changes them while playing. fgrabsink sets v4l2loopback's keep_format,
# sustain_framerate and timeout. The device monitor names each node's controls.
#@vivid: n_devs=1 node_types=0x101
#@v4l2loopback: devices=1 video_nr=10 card_label=loop
# shellcheck source=../lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"

CAP=/dev/video0
LOOP=/dev/video10
require_element fgrabsrc
require_element fgrabsink
[ -x "$KT_PYTHON" ] || fatal "$KT_PYTHON missing"
vivid_still

# controls TAG PIPELINE DEVICE NAMES [LIVE]: fgrab-probe.py controls (sets KT_LOG, KT_RC)
controls() {
	local tag=$1
	shift
	KT_LOG=$KT_LOGS/$tag.log
	set +e
	timeout -k 5 90 "$KT_PYTHON" "$KT_PROBE" controls "$@" >"$KT_LOG" 2>&1
	KT_RC=$?
	set -e
	info "fgrab-probe controls ($tag) -> exit $KT_RC"
}

# ctl PHASE NAME: the value v4l2-ctl printed for NAME in PHASE ("" if absent)
ctl() { log_match "^$1\\.ctl: $2: (.*)$"; }
# prop PHASE: the extra-controls structure the element read back in PHASE
prop() { log_match "^$1\\.prop=(.*)$"; }
# expect_text DESC TEXT: the last probe's output has TEXT, as it is
expect_text() {
	if grep -Fq -- "$2" "$KT_LOG"; then pass "$1"; else fail "$1 (no '$2')"; fi
}

SRC="fgrabsrc name=el device=$CAP input=0"
SINK_CAPS="video/x-raw,format=YUY2,width=320,height=240,framerate=30/1"

section "every control type set at open, read back; brightness and the test pattern changed live"
controls all-types \
	"$SRC extra-controls=\"c,brightness=200,contrast=50,saturation=10,hue=-20,boolean=false,integer_64_bits=12345678901,menu=menu_item_4,integer_menu=2,string=abc,bitmask=0x10\" ! video/x-raw,width=320,height=180 ! fakesink" \
	$CAP brightness,contrast,saturation,hue,boolean,integer_64_bits,menu,integer_menu,string,bitmask,test_pattern \
	"c,brightness=99,test_pattern=100_black,button=1"
show_log "$KT_LOG" 40
expect_eq "probe exit" "$KT_RC" 0
expect_eq "brightness at open" "$(ctl start brightness)" 200
expect_eq "contrast at open" "$(ctl start contrast)" 50
expect_eq "saturation at open" "$(ctl start saturation)" 10
expect_eq "hue at open" "$(ctl start hue)" -20
expect_eq "boolean at open" "$(ctl start boolean)" 0
expect_eq "integer_64_bits at open" "$(ctl start integer_64_bits)" 12345678901
expect_eq "menu by item name" "$(ctl start menu)" "4 (Menu Item 4)"
expect_eq "integer_menu by index" "$(ctl start integer_menu)" "2 (2 0x2)"
expect_eq "string" "$(ctl start string)" "'abc'"
# v4l-utils 1.22 and 1.30 print a bitmask in decimal, forky's 1.32 in hex
# (0x00000010): the value is compared as a number
bitmask=$(ctl start bitmask)
[[ $bitmask =~ ^(0x[0-9a-fA-F]+|[0-9]+)$ ]] && bitmask=$((bitmask))
expect_eq "bitmask" "$bitmask" 16
P=$(prop start)
info "read back at start: $P"
for want in "brightness=(int)200" "hue=(int)-20" "boolean=(boolean)false" \
	"integer_64_bits=(gint64)12345678901" "menu=(string)\"Menu\\ Item\\ 4\"" "string=(string)abc"; do
	[[ $P == *"$want"* ]] && pass "property reads back $want" || fail "property lacks $want: $P"
done
expect_eq "brightness changed live" "$(ctl live brightness)" 99
expect_eq "test pattern changed live (by item name)" "$(ctl live test_pattern)" "5 (100% Black)"
P=$(prop live)
[[ $P == *"brightness=(int)99"* ]] && pass "property reads back the live brightness" || fail "live read back: $P"
expect_no_log "no warning for valid controls" "warning:"

section "refusals are warnings naming the control and why; the rest is set, frames flow"
controls refusals \
	"$SRC extra-controls=\"c,brightnes=1,contrast=999,read_only_integer_32_bits=5,menu=2,string=x,saturation=77\" ! video/x-raw,width=320,height=180 ! fakesink" \
	$CAP saturation,contrast
show_log "$KT_LOG" 30
expect_eq "probe exit (frames flowed)" "$KT_RC" 0
expect_eq "the valid control was set" "$(ctl start saturation)" 77
expect_text "unknown name, with the node's controls" "warning: Device '$CAP' has no control 'brightnes'. Its controls are: brightness, contrast"
expect_text "out of range, with the range" "warning: Control 'contrast' of device '$CAP' was not set: 999 is out of its range, 0 to 255"
expect_text "read-only" "warning: Control 'read_only_integer_32_bits' of device '$CAP' was not set: it is read-only."
expect_text "a skipped menu item, with the items" "warning: Control 'menu' of device '$CAP' was not set: 2 is not one of its items (1: Menu Item 1, 3: Menu Item 3, 4: Menu Item 4)."
expect_text "a string too short, with the lengths" "warning: Control 'string' of device '$CAP' was not set: 1 is out of its range, 2 to 4"

section "a control vivid holds while streaming: busy warning, value kept"
controls busy "$SRC ! video/x-raw,width=320,height=180 ! fakesink" \
	$CAP enable_capture_cropping "c,enable_capture_cropping=false"
show_log "$KT_LOG" 20
expect_eq "probe exit" "$KT_RC" 0
expect_text "busy warning" "warning: Control 'enable_capture_cropping' of device '$CAP' was not set: the driver does not let it change now"
expect_eq "value kept" "$(ctl live enable_capture_cropping)" 1

section "colour balance: properties at open, the interface while playing"
controls balance \
	"$SRC brightness=10 contrast=20 saturation=30 hue=-40 ! video/x-raw,width=320,height=180 ! fakesink" \
	$CAP brightness,contrast,saturation,hue "balance:Brightness=140,Hue=60"
show_log "$KT_LOG" 30
expect_eq "probe exit" "$KT_RC" 0
expect_eq "brightness at open" "$(ctl start brightness)" 10
expect_eq "contrast at open" "$(ctl start contrast)" 20
expect_eq "saturation at open" "$(ctl start saturation)" 30
expect_eq "hue at open" "$(ctl start hue)" -40
expect_text "properties read back" "start.hue=-40"
expect_text "brightness channel with vivid's range" "channel: Brightness 0 255"
expect_text "hue channel with vivid's range" "channel: Hue -128 128"
expect_eq "brightness changed live through the interface" "$(ctl live brightness)" 140
expect_eq "hue changed live through the interface" "$(ctl live hue)" 60
expect_text "the property follows the interface" "live.brightness=140"
expect_no_log "no warning" "warning:"

section "fgrabsink sets v4l2loopback's keep_format, sustain_framerate, timeout"
controls loopback \
	"videotestsrc is-live=true ! $SINK_CAPS ! fgrabsink name=el device=$LOOP extra-controls=\"c,keep_format=1,sustain_framerate=true,timeout=2000\"" \
	$LOOP keep_format,sustain_framerate,timeout
show_log "$KT_LOG" 20
expect_eq "probe exit" "$KT_RC" 0
expect_eq "keep_format" "$(ctl start keep_format)" 1
expect_eq "sustain_framerate" "$(ctl start sustain_framerate)" 1
expect_eq "timeout" "$(ctl start timeout)" 2000

section "the device monitor names the node's controls"
KT_LOG=$KT_LOGS/device-monitor.log
set +e
timeout -k 5 60 gst-device-monitor-1.0 Video/Source >"$KT_LOG" 2>&1
KT_RC=$?
set -e
expect_eq "gst-device-monitor-1.0 exit" "$KT_RC" 0
expect_log "vivid's controls listed" "fgrab.controls = < \(string\)brightness, \(string\)contrast"
expect_log "vivid's own controls listed" "test_pattern"

kt_finish
