#!/bin/bash
# Signal loss on vivid's S-Video input, live (issue 35): while fgrabsrc
# reads, vivid's own "Standard Signal Mode" control, set from a second
# handle, takes the signal away (1, no signal) and gives it back (0).
# For each signal-loss setting fgrabsrc must post the warning "Signal lost
# on input 'S-Video 2': no signal." after the loss, the info "Signal
# recovered on input 'S-Video 2'." after the return, and the
# fgrab-input-status messages (signal=0 with no-signal, then signal=1),
# without a restart; and push: driver, vivid's frames (noise) all along;
# nothing, no frame while the signal is gone; black, black frames only.
# After the return the picture comes again.  Stock v4l2src (io-mode=rw
# and mmap) runs through the same steps, and what it did is printed for
# the guide's table (docs/guide.md, "Live inputs"), not judged.
#@vivid: n_devs=1 node_types=0x1
#@v4l2loopback: none
# shellcheck source=../lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"

DEV=/dev/video0
WATCH=$KT_DIR/signal-watch.py
CAPS="video/x-raw,format=YUY2,width=720,height=576"
SINK="appsink name=sink sync=false"
# seconds after PLAYING: the signal goes, comes back, the run ends
LOSS_AT=3
BACK_AT=8
END_AT=13
# frames within this long of a status change may be either
SETTLE=0.5
[ -x "$KT_PYTHON" ] || fatal "$KT_PYTHON missing"
require_element fgrabsrc

# watch NAME PIPELINE: the run's lines into $KT_LOGS/NAME.txt
watch() {
	local rc=0
	v4l2-ctl -d $DEV -i 2 -s pal -c standard_signal_mode=0 >/dev/null 2>&1 ||
		fatal "v4l2-ctl could not select vivid's S-Video input under PAL"
	timeout -k 5 90 "$KT_PYTHON" "$WATCH" "$2" $DEV $LOSS_AT $BACK_AT $END_AT \
		>"$KT_LOGS/$1.txt" 2>&1 || rc=$?
	[ $rc -eq 0 ] || { fail "$1: signal-watch exit status $rc"; show_log "$KT_LOGS/$1.txt"; }
}

# plus A B: A + B, decimals
plus() { awk -v a="$1" -v b="$2" 'BEGIN { print a + b }'; }

# first_time FILE PATTERN: the time of the first line matching PATTERN
first_time() { awk -v p="$2" '$0 ~ p { print $2; exit }' "$1"; }

# frames FILE FROM TO KIND: frames (of KIND, or any) with FROM < T < TO
count_frames() {
	awk -v a="$2" -v b="$3" -v k="${4:-}" \
		'$1 == "frame" && $2 > a && $2 < b && (k == "" || $3 == k) { n++ }
		END { print n + 0 }' "$1"
}

# check_fgrab MODE: what fgrabsrc with signal-loss=MODE said and pushed
check_fgrab() {
	local f=$KT_LOGS/fgrabsrc-$1.txt lost back all black picture
	section "fgrabsrc signal-loss=$1"
	watch "fgrabsrc-$1" "fgrabsrc device=$DEV input=2 norm=PAL signal-loss=$1 ! $CAPS ! $SINK"
	lost=$(first_time "$f" '^status .* signal=0 .*no-signal')
	[ -n "$lost" ] || { fail "$1: no fgrab-input-status with signal=0 and no-signal"; return; }
	back=$(awk -v l="$lost" '$1 == "status" && $2 > l && $3 == "signal=1" { print $2; exit }' "$f")
	[ -n "$back" ] || { fail "$1: no fgrab-input-status with signal=1 after the loss"; return; }
	info "loss seen at ${lost} s (set at $LOSS_AT s), return at ${back} s (set at $BACK_AT s)"
	grep -q "^warning .* Signal lost on input 'S-Video 2': no signal\.$" "$f" &&
		pass "$1: the warning names the input and the loss" ||
		fail "$1: no warning \"Signal lost on input 'S-Video 2': no signal.\""
	grep -q "^info .* Signal recovered on input 'S-Video 2'\.$" "$f" &&
		pass "$1: the info says the signal returned" ||
		fail "$1: no info \"Signal recovered on input 'S-Video 2'.\""

	all=$(count_frames "$f" "$(plus "$lost" $SETTLE)" "$back")
	black=$(count_frames "$f" "$(plus "$lost" $SETTLE)" "$back" black)
	info "frames while the signal was gone: $all ($black black)"
	case $1 in
	driver) expect_ge "driver: vivid's frames pushed meanwhile" "$all" 5
		expect_eq "driver: none of them black" "$black" 0 ;;
	nothing) expect_eq "nothing: no frame pushed meanwhile" "$all" 0 ;;
	black) expect_ge "black: frames pushed meanwhile" "$all" 5
		expect_eq "black: every one of them black" "$black" "$all" ;;
	esac
	picture=$(count_frames "$f" "$(plus "$back" $SETTLE)" 999 picture)
	expect_ge "$1: the picture again after the return, without a restart" "$picture" 5
}

check_v4l2src() {
	local f=$KT_LOGS/v4l2src-$1.txt
	section "v4l2src io-mode=$1 (for the guide's table)"
	watch "v4l2src-$1" "v4l2src device=$DEV io-mode=$1 ! $CAPS ! $SINK"
	info "v4l2src io-mode=$1: warnings: $(grep -c '^warning' "$f"), infos:" \
		"$(grep -c '^info' "$f"), frames while the signal was gone:" \
		"$(count_frames "$f" $((LOSS_AT + 1)) $BACK_AT) ($(count_frames "$f" \
		$((LOSS_AT + 1)) $BACK_AT black) black)"
	grep -E '^(warning|info|error)' "$f" | sed 's/^/    /' || true
}

for mode in driver nothing black; do
	check_fgrab $mode
done
check_v4l2src rw
check_v4l2src mmap
kt_finish
