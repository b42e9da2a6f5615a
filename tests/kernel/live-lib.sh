# shellcheck shell=bash
# What the live-input groups share (src-live.sh for fgrabsrc, and
# src-live-v4l2src.sh, stock v4l2src through the same steps): vivid's
# capture node driven from a second handle while live-watch.py watches a
# pipeline, and the readings of its lines.  Sourced after lib.sh.

DEV=/dev/video0
WATCH=$KT_DIR/live-watch.py
SINK="appsink name=sink sync=false"
# frames within this long of a status change may be either
SETTLE=0.5
[ -x "$KT_PYTHON" ] || fatal "$KT_PYTHON missing"

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
	{ v4l2-ctl -d $DEV --list-inputs 2>/dev/null || true; } | awk -v i="$1" '
		/^[[:space:]]*Input[[:space:]]*:/ { cur = $NF }
		cur == i && /^[[:space:]]*Name[[:space:]]*:/ {
			sub(/^[[:space:]]*Name[[:space:]]*: /, ""); print; exit }'
}
said() { # FILE DESC LINE-REGEX
	if grep -Eq "$3" "$1"; then pass "$2"; else fail "$2 (no line like: $3)"; fi
}

svideo() { vivid_set -i 2 -s pal -c standard_signal_mode=0,contrast=128; }
SVIDEO=$(input_name 2)
HDMI=$(input_name 3)
[ -n "$SVIDEO" ] && [ -n "$HDMI" ] || fatal "vivid's inputs 2 and 3 have no names"
info "vivid's inputs: 2 '$SVIDEO', 3 '$HDMI'"

# The steps every element goes through (ELEMENT: a pipeline's source,
# named "src"; NAME: the runs' log names).
# S-Video: the signal goes at 2 s and comes back at 5 s; contrast at 6.5 s.
run_loss() { # NAME ELEMENT
	svideo
	watch "$1" "$2 ! video/x-raw,format=YUY2 ! $SINK" \
		2:standard_signal_mode=1 5:standard_signal_mode=0 6.5:contrast=200 8
}
# PAL on the wire (the driver left on NTSC), NTSC at 3 s.
run_std_change() { # NAME ELEMENT
	vivid_set -i 2 -s ntsc -c standard_signal_mode=4,standard=4
	watch "$1" "$2 ! video/x-raw,format=YUY2 ! $SINK" 3:standard=0 7
}
# HDMI at 1280x720p60, 1920x1080p30 at 3 s, no signal at 6 s, no lock at
# 8 s, back at 10 s.
run_hdmi() { # NAME ELEMENT
	vivid_set -i 3
	vivid_set -c dv_timings_signal_mode=4,dv_timings="$(dv_index 1280x720p60)"
	watch "$1" "$2 ! video/x-raw,format=YUY2 ! $SINK" 3:dv_timings=dv:1920x1080p30 \
		6:dv_timings_signal_mode=1 8:dv_timings_signal_mode=2 10:dv_timings_signal_mode=4 13
}
