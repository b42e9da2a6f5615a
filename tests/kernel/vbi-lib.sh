# shellcheck shell=bash disable=SC2034 # variables are used by the scenarios
# What the VBI scenarios share (sourced after lib.sh): vivid's nodes on its
# TV input under NTSC, what the driver sends read by v4l2-ctl, and the check
# of caption texts against vivid's (cc-text.py).

VID=/dev/video0
VBI=/dev/vbi0
CCTEXT="$KT_PYTHON $KT_DIR/cc-text.py"
require_element fgrabsrc
[ -c "$VBI" ] || fatal "$VBI missing: vivid without its VBI capture node"

# vbi_select_ntsc_tv: both nodes on the TV input under NTSC, before anything
# streams (vivid refuses a new input or standard while one of its queues is
# busy)
vbi_select_ntsc_tv() {
	v4l2-ctl -d $VID -i 1 -s ntsc >/dev/null || fatal "cannot select TV/NTSC on $VID"
}

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

# vbi_driver_captions FRAMES OUT: the captions of FRAMES frames of the sliced
# VBI node as v4l2-ctl reads them (mmap), one a line in OUT
vbi_driver_captions() {
	local rc
	set +e
	timeout -k 5 60 v4l2-ctl -d $VBI --set-fmt-sliced-vbi=cc --stream-mmap \
		--stream-count="$1" --stream-to="$KT_WORK/ref.vbi" >"$KT_LOGS/v4l2-ctl.log" 2>&1
	rc=$?
	set -e
	expect_eq "v4l2-ctl exit" "$rc" 0
	$CCTEXT records "$KT_WORK/ref.vbi" >"$2"
	info "driver sent: $(captions "$2")"
}
