#!/bin/bash
# Live inputs on vivid (issue 35): vivid's own signal controls, set from a
# second handle while fgrabsrc reads (live-watch.py), move what is on the
# wire, and fgrabsrc must follow without a restart.
# - S-Video signal off and on ("Standard Signal Mode" 1, then 0): the
#   warning "Signal lost on input 'S-Video 0': no signal." (the input's
#   name as vivid gives it: 'S-Video 0' on Linux 6.1, 'S-Video 000-0' on
#   6.12), the info "Signal recovered on input 'S-Video 0'.", the
#   fgrab-input-status
#   messages, and what each signal-loss setting pushes meanwhile (driver:
#   vivid's frames; nothing: none; black: black frames); the picture after.
#   In the driver run contrast is also changed with v4l2-ctl: notify
#   (not brightness: vivid keeps one per input and moves the control's
#   value when the input changes).
# - norm=auto picks NTSC with the driver left on PAL, and follows the
#   wire from PAL to NTSC mid-capture ("Standard Signal Mode" 4 with
#   "Standard" 4 PAL-BGH, then 0 NTSC-M): caps 720x576, then 720x480, and
#   every frame after of 720x480 YUY2.
# - HDMI from 1280x720p60 to 1920x1080p30 mid-capture ("DV Timings Signal
#   Mode" 4 with "DV Timings"), then no signal (1), no lock (2) and back:
#   caps and frames of the new size, warnings, the return.
# Stock v4l2src (io-mode=rw and mmap) runs through the same steps; what it
# did is printed for the guide's table (docs/guide.md, "Live inputs"),
# not judged.
#@vivid: n_devs=1 node_types=0x1
#@v4l2loopback: none
# shellcheck source=../lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"

DEV=/dev/video0
WATCH=$KT_DIR/live-watch.py
SINK="appsink name=sink sync=false"
# frames within this long of a status change may be either
SETTLE=0.5
[ -x "$KT_PYTHON" ] || fatal "$KT_PYTHON missing"
require_element fgrabsrc

# watch NAME PIPELINE STEP... END: live-watch.py's lines in $KT_LOGS/NAME.txt
watch() {
	local name=$1 rc=0
	shift
	timeout -k 5 120 "$KT_PYTHON" "$WATCH" "$1" $DEV "${@:2}" \
		>"$KT_LOGS/$name.txt" 2>&1 || rc=$?
	[ $rc -eq 0 ] || { fail "$name: live-watch exit status $rc"; show_log "$KT_LOGS/$name.txt"; }
}
vivid_set() { v4l2-ctl -d $DEV "$@" >/dev/null 2>&1 || fatal "v4l2-ctl $* failed"; }
plus() { awk -v a="$1" -v b="$2" 'BEGIN { print a + b }'; }
# at FILE PATTERN [AFTER]: the time of the first line matching PATTERN after AFTER
at() { awk -v p="$2" -v a="${3:-0}" '$2 > a && $0 ~ p { print $2; exit }' "$1"; }
# count FILE FROM TO [KIND] [SIZE]: frames with FROM < T < TO (of KIND, of SIZE bytes)
count() {
	awk -v a="$2" -v b="$3" -v k="${4:-}" -v s="${5:-}" '$1 == "frame" &&
		$2 > a && $2 < b && (k == "" || $4 == k) && (s == "" || $3 == s) { n++ }
		END { print n + 0 }' "$1"
}
# dv_index NAME: the index of vivid's "DV Timings" menu item NAME
dv_index() {
	v4l2-ctl -d $DEV --list-ctrls-menus 2>/dev/null | awk -v n="$1" '
		/^ *dv_timings / { menu = 1; next }
		menu && !/^\t\t/ { exit }
		menu && index($2, n) == 1 { sub(":", "", $1); print $1; exit }'
}
# input_name INDEX: the name vivid gives input INDEX ("S-Video 0" on Linux
# 6.1, "S-Video 000-0" on 6.12: its instance number came in)
input_name() {
	v4l2-ctl -d $DEV --enum-input "$1" 2>/dev/null |
		sed -n 's/^[[:space:]]*Name[[:space:]]*: //p' | head -1
}
said() { # FILE DESC LINE-REGEX
	if grep -Eq "$3" "$1"; then pass "$2"; else fail "$2 (no line like: $3)"; fi
}
summary() { # FILE: what a stock element did, for the guide
	info "$(basename "$1" .txt): caps $(grep -c '^caps' "$1"), warnings" \
		"$(grep -c '^warning' "$1"), infos $(grep -c '^info' "$1"), errors" \
		"$(grep -c '^error' "$1"), frames $(grep -c '^frame' "$1")"
	grep -E '^(caps|warning|info|error)' "$1" | sed 's/^/      /' || true
}

svideo() { vivid_set -i 2 -s pal -c standard_signal_mode=0,contrast=128; }
SVIDEO=$(input_name 2)
HDMI=$(input_name 3)
[ -n "$SVIDEO" ] && [ -n "$HDMI" ] || fatal "vivid's inputs 2 and 3 have no names"
info "vivid's inputs: 2 '$SVIDEO', 3 '$HDMI'"

section "S-Video: the signal goes at 2 s and comes back at 5 s"
for mode in driver nothing black; do
	svideo
	f=$KT_LOGS/loss-$mode.txt
	watch loss-$mode "fgrabsrc name=src device=$DEV input=2 norm=PAL signal-loss=$mode ! video/x-raw,format=YUY2 ! $SINK" \
		2:standard_signal_mode=1 5:standard_signal_mode=0 6.5:contrast=200 8
	lost=$(at "$f" '^status .* signal=0 .*no-signal')
	back=$(at "$f" '^status .* signal=1' "${lost:-0}")
	if [ -z "$lost" ] || [ -z "$back" ]; then
		fail "$mode: no fgrab-input-status with signal=0 and no-signal, then signal=1"
		show_log "$f"
		continue
	fi
	info "$mode: loss seen at $lost s, return at $back s"
	# frames are printed as they come, bus messages when the main loop
	# gets to them: the window ends when the signal was given back
	back_set=$(at "$f" '^step .* standard_signal_mode=0' "$lost")
	said "$f" "$mode: the warning names the input and the loss" \
		"^warning .* Signal lost on input '$SVIDEO': no signal\.$"
	said "$f" "$mode: the info says the signal returned" \
		"^info .* Signal recovered on input '$SVIDEO'\.$"
	all=$(count "$f" "$(plus "$lost" $SETTLE)" "${back_set:-$back}")
	black=$(count "$f" "$(plus "$lost" $SETTLE)" "${back_set:-$back}" black)
	info "$mode: frames while the signal was gone: $all ($black black)"
	case $mode in
	driver) expect_ge "driver: vivid's frames pushed meanwhile" "$all" 3
		expect_eq "driver: none of them black" "$black" 0
		said "$f" "driver: contrast set with v4l2-ctl is notified" \
			"^notify .* contrast=200$" ;;
	nothing) expect_eq "nothing: no frame pushed meanwhile" "$all" 0 ;;
	black) expect_ge "black: frames pushed meanwhile" "$all" 3
		expect_eq "black: every one of them black" "$black" "$all" ;;
	esac
	expect_ge "$mode: the picture again after the return, without a restart" \
		"$(count "$f" "$(plus "$back" $SETTLE)" 99 picture)" 3
done
for io in rw mmap; do
	svideo
	watch loss-v4l2src-$io "v4l2src name=src device=$DEV io-mode=$io ! video/x-raw,format=YUY2 ! $SINK" \
		2:standard_signal_mode=1 5:standard_signal_mode=0 6.5:contrast=200 8
	summary "$KT_LOGS/loss-v4l2src-$io.txt"
done

section "the guide's recorder line, with the signal gone"
vivid_set -i 2 -s pal -c standard_signal_mode=1
rec=$KT_LOGS/rec.avi
gst recorder 60 -e fgrabsrc device=$DEV input=2 norm=auto signal-loss=black num-buffers=25 \
	! videoconvert ! jpegenc ! avimux ! filesink location="$rec"
expect_eq "the recorder ends in EOS" "$KT_RC" 0
expect_ge "the recording has its 25 frames' bytes" "$(stat -c %s "$rec" 2>/dev/null || echo 0)" 10000
expect_log "no standard to detect without a signal: a warning" "Could not detect the video standard of input 2"
expect_log "the loss is said" "Signal lost on input '$SVIDEO': no signal"

section "norm=auto: NTSC on the wire, the driver left on PAL"
vivid_set -i 2 -s pal -c standard_signal_mode=4,standard=0
f=$KT_LOGS/auto-ntsc.txt
watch auto-ntsc "fgrabsrc name=src device=$DEV input=2 norm=auto ! video/x-raw,format=YUY2 ! $SINK" 3
said "$f" "norm=auto picks NTSC: caps 720x480 at 30000/1001" '^caps .* 720x480 30000/1001$'
expect_ge "norm=auto: frames of 720x480" "$(count "$f" 0 99 "" $((720 * 480 * 2)))" 3

section "norm=auto: PAL on the wire, NTSC at 3 s"
for el in fgrabsrc v4l2src-rw v4l2src-mmap; do
	vivid_set -i 2 -s ntsc -c standard_signal_mode=4,standard=4
	case $el in
	fgrabsrc) desc="fgrabsrc name=src device=$DEV input=2 norm=auto" ;;
	*) desc="v4l2src name=src device=$DEV io-mode=${el#v4l2src-}" ;;
	esac
	watch std-$el "$desc ! video/x-raw,format=YUY2 ! $SINK" 3:standard=0 7
	[ $el = fgrabsrc ] || { summary "$KT_LOGS/std-$el.txt"; continue; }
	f=$KT_LOGS/std-$el.txt
	said "$f" "norm=auto picks PAL: caps 720x576 at 25/1" '^caps .* 720x576 25/1$'
	new=$(at "$f" '^caps .* 720x480 30000/1001$')
	[ -n "$new" ] && pass "the new standard negotiated without a restart: 720x480 at $new s" ||
		{ fail "no caps of 720x480 after NTSC came on the wire"; continue; }
	expect_eq "every frame after the new caps is 720x480 YUY2" \
		"$(count "$f" "$new" 99)" "$(count "$f" "$new" 99 "" $((720 * 480 * 2)))"
	expect_ge "frames of the new standard" "$(count "$f" "$new" 99)" 3
done

section "HDMI: 1280x720p60, 1920x1080p30 at 3 s, no signal at 6 s, no lock at 8 s, back at 10 s"
for el in fgrabsrc v4l2src-rw v4l2src-mmap; do
	vivid_set -i 3
	vivid_set -c dv_timings_signal_mode=4,dv_timings="$(dv_index 1280x720p60)"
	case $el in
	fgrabsrc) desc="fgrabsrc name=src device=$DEV input=3" ;;
	*) desc="v4l2src name=src device=$DEV io-mode=${el#v4l2src-}" ;;
	esac
	watch hdmi-$el "$desc ! video/x-raw,format=YUY2 ! $SINK" 3:dv_timings=dv:1920x1080p30 \
		6:dv_timings_signal_mode=1 8:dv_timings_signal_mode=2 10:dv_timings_signal_mode=4 13
	[ $el = fgrabsrc ] || { summary "$KT_LOGS/hdmi-$el.txt"; continue; }
	f=$KT_LOGS/hdmi-$el.txt
	said "$f" "HDMI starts at 1280x720" '^caps .* 1280x720 '
	new=$(at "$f" '^caps .* 1920x1080 ')
	[ -n "$new" ] && pass "1920x1080p30 negotiated without a restart at $new s" ||
		{ fail "no caps of 1920x1080 after the switch"; show_log "$f"; continue; }
	lost=$(at "$f" '^status .* signal=0' "$new")
	expect_eq "every frame between the switch and the loss is 1920x1080" \
		"$(count "$f" "$new" "${lost:-99}")" "$(count "$f" "$new" "${lost:-99}" "" $((1920 * 1080 * 2)))"
	expect_ge "frames of 1920x1080" "$(count "$f" "$new" "${lost:-99}")" 3
	said "$f" "no signal on HDMI is a warning naming the input" \
		"^warning .* Signal lost on input '$HDMI': no signal"
	said "$f" "no lock on HDMI is a loss too" '^status .* signal=0 flags=.*no-h-lock'
	said "$f" "the signal's return is posted" "^info .* Signal recovered on input '$HDMI'\.$"
	said "$f" "dv-timings is notified" '^notify .* dv-timings=1920x1080p30'
done
kt_finish
