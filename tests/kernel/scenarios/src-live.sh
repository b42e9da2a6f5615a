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
# Stock v4l2src goes through the same steps in src-live-v4l2src.sh (the
# guide's table), outside CI.
#@vivid: n_devs=1 node_types=0x1
#@v4l2loopback: none
# shellcheck source=../lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
# shellcheck source=../live-lib.sh
source "$KT_DIR/live-lib.sh"
require_element fgrabsrc

section "S-Video: the signal goes at 2 s and comes back at 5 s"
for mode in driver nothing black; do
	f=$KT_LOGS/loss-$mode.txt
	run_loss loss-$mode "fgrabsrc name=src device=$DEV input=2 norm=PAL signal-loss=$mode"
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
f=$KT_LOGS/std-fgrabsrc.txt
run_std_change std-fgrabsrc "fgrabsrc name=src device=$DEV input=2 norm=auto"
said "$f" "norm=auto picks PAL: caps 720x576 at 25/1" '^caps .* 720x576 25/1$'
new=$(at "$f" '^caps .* 720x480 30000/1001$')
if [ -n "$new" ]; then
	pass "the new standard negotiated without a restart: 720x480 at $new s"
	expect_eq "every frame after the new caps is 720x480 YUY2" \
		"$(count "$f" "$new" 99)" "$(count "$f" "$new" 99 "" $((720 * 480 * 2)))"
	expect_ge "frames of the new standard" "$(count "$f" "$new" 99)" 3
else
	fail "no caps of 720x480 after NTSC came on the wire"
	show_log "$f"
fi

section "HDMI: 1280x720p60, 1920x1080p30 at 3 s, no signal at 6 s, no lock at 8 s, back at 10 s"
f=$KT_LOGS/hdmi-fgrabsrc.txt
run_hdmi hdmi-fgrabsrc "fgrabsrc name=src device=$DEV input=3"
said "$f" "HDMI starts at 1280x720" '^caps .* 1280x720 '
new=$(at "$f" '^caps .* 1920x1080 ')
if [ -n "$new" ]; then
	pass "1920x1080p30 negotiated without a restart at $new s"
	lost=$(at "$f" '^status .* signal=0' "$new")
	expect_eq "every frame between the switch and the loss is 1920x1080" \
		"$(count "$f" "$new" "${lost:-99}")" "$(count "$f" "$new" "${lost:-99}" "" $((1920 * 1080 * 2)))"
	expect_ge "frames of 1920x1080" "$(count "$f" "$new" "${lost:-99}")" 3
else
	fail "no caps of 1920x1080 after the switch"
	show_log "$f"
fi
said "$f" "no signal on HDMI is a warning naming the input" \
	"^warning .* Signal lost on input '$HDMI': no signal"
said "$f" "no lock on HDMI is a loss too" '^status .* signal=0 flags=.*no-h-lock'
said "$f" "the signal's return is posted" "^info .* Signal recovered on input '$HDMI'\.$"
said "$f" "dv-timings is notified" '^notify .* dv-timings=1920x1080p30'
kt_finish
