#!/bin/bash
# Input, output and standard selection (fgrabsrc input/norm, fgrabsink
# output/norm) on vivid. The capture node's TV and S-Video inputs with norm PAL
# and NTSC: the driver is first left on another input and the other standard,
# so the element must select both itself; the caps then carry the standard's
# size and nominal rate (720x576 at 25/1, 720x480 at 30000/1001), frames flow,
# and v4l2-ctl from a second handle sees the input and standard afterwards.
# Leaving both unset keeps the driver's input and standard; the properties read
# back the driver's values at READY (a GObject introspection probe). Errors: a
# standard on the webcam and HDMI inputs (no standards), an input index vivid
# does not have (the error lists the inputs by name). The output node's
# S-Video output with norm=NTSC: the output and standard are set at READY (the
# properties read them back, the driver's output format becomes 720x480 and the
# sink's caps take it), and a gst-launch run ends either in EOS or in this
# kernel's known write() refusal (see sink-vivid.sh), never in an error about
# the selection. vivid scales on its analog inputs and outputs, so at READY the
# sizes are ranges; the rate in the source's caps is the standard's.
#@vivid: n_devs=1 node_types=0x101
#@v4l2loopback: none
# shellcheck source=../lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"

CAP=/dev/video0
OUT=/dev/video1
export GST_DEBUG_NO_COLOR=1
require_element fgrabsrc
require_element fgrabsink
vivid_still

# V4L2_STD_* masks as vivid keeps them after S_STD with the group
declare -A STD_HEX=([PAL]=0x000000ff [NTSC]=0x0000b000)
declare -A STD_V4L2CTL=([PAL]=pal [NTSC]=ntsc)
declare -A OTHER=([PAL]=NTSC [NTSC]=PAL)
declare -A STD_SIZE=([PAL]=720x576 [NTSC]=720x480)
declare -A STD_RATE=([PAL]=25/1 [NTSC]=30000/1001)

# drv_std DEV: the standard G_STD reports, as v4l2-ctl prints it (0x...), "" if none
drv_std() {
	local line out
	out=$(v4l2-ctl -d "$1" --get-standard 2>&1) || true
	while IFS= read -r line; do
		if [[ $line =~ Video\ Standard\ *=\ *(0x[0-9a-fA-F]+) ]]; then
			echo "${BASH_REMATCH[1]}"
			return 0
		fi
	done <<<"$out"
	echo ""
}

# drv_route DEV input|output: the current input/output index, "" if none
drv_route() {
	local out re="Video $2 *: *([0-9]+)"
	out=$(v4l2-ctl -d "$1" --get-"$2" 2>&1) || true
	if [[ $out =~ $re ]]; then echo "${BASH_REMATCH[1]}"; else echo ""; fi
}

# route_list DEV inputs|outputs: "0 'Webcam 0', 1 'TV 1', ..." as v4l2-ctl lists them
route_list() {
	local line idx="" list="" re
	re="^(Input|Output) *: *([0-9]+)"
	while IFS= read -r line; do
		line=${line#"${line%%[![:space:]]*}"}
		if [[ $line =~ $re ]]; then
			idx=${BASH_REMATCH[2]}
		elif [[ $line =~ ^Name\ *:\ *(.*)$ ]] && [ -n "$idx" ]; then
			list+="${list:+, }$idx '${BASH_REMATCH[1]}'"
			idx=""
		fi
	done < <(v4l2-ctl -d "$1" --list-"$2" 2>&1)
	echo "$list"
}

# route_index DEV inputs|outputs PREFIX: the index whose name starts with PREFIX
route_index() {
	local re="([0-9]+) '$3[^']*'"
	if [[ $(route_list "$1" "$2") =~ $re ]]; then echo "${BASH_REMATCH[1]}"; else return 1; fi
}

# The probe: FACTORY DEVICE PROP=VALUE..., the element alone taken to READY;
# prints "error=..." for an error it posted, then input/output, norm, the
# sizes and rates its pad offers ("caps=WxH@RATE" per structure, once each)
# and whether those caps take each of PROBE_CAPS ("A|B": accepts1=yes|no).
PROBE_PY=$KT_WORK/input-norm-probe.py
cat >"$PROBE_PY" <<'EOF'
import os
import re
import sys
import gi
gi.require_version("Gst", "1.0")
from gi.repository import Gst
Gst.init(None)
factory, device = sys.argv[1], sys.argv[2]
e = Gst.ElementFactory.make(factory, None)
e.set_property("device", device)
for arg in sys.argv[3:]:
    k, v = arg.split("=", 1)
    Gst.util_set_object_arg(e, k, v)
bus = Gst.Bus.new()
e.set_bus(bus)
ret = e.set_state(Gst.State.READY)
msg = bus.pop_filtered(Gst.MessageType.ERROR)
if msg:
    print("error=" + msg.parse_error()[0].message)
if ret != Gst.StateChangeReturn.FAILURE:
    route = "input" if factory == "fgrabsrc" else "output"
    print("%s=%d" % (route, e.get_property(route)))
    norm = e.get_property("norm")
    print("norm=" + getattr(norm, "value_nick", str(norm)))
    pad = e.get_static_pad("src" if factory == "fgrabsrc" else "sink")
    seen = []
    caps = pad.query_caps(None)
    for i in range(caps.get_size()):
        text = caps.get_structure(i).to_string()
        fields = []
        for name in ("width", "height", "framerate"):
            m = re.search(name + r"=\([a-z]+\)([^,;]+)", text)
            fields.append(m.group(1) if m else "?")
        item = "%sx%s@%s" % tuple(fields)
        if item not in seen:
            seen.append(item)
    for item in seen:
        print("caps=" + item)
    # PROBE_CAPS="A|B": whether the pad's caps take A, B (accepts1=yes ...)
    wants = [w for w in os.environ.get("PROBE_CAPS", "").split("|") if w]
    for n, want in enumerate(wants, 1):
        ok = caps.can_intersect(Gst.Caps.from_string(want))
        print("accepts%d=%s" % (n, "yes" if ok else "no"))
e.set_state(Gst.State.NULL)
sys.exit(1 if ret == Gst.StateChangeReturn.FAILURE else 0)
EOF

# probe_run TAG FACTORY DEVICE PROP=VALUE...: probe into $KT_LOGS/TAG-probe.log
probe_run() {
	local tag=$1
	shift
	PROBE_LOG=$KT_LOGS/$tag-probe.log
	set +e
	GST_DEBUG=fgrabnode:5 timeout -k 5 60 "$KT_PYTHON" "$PROBE_PY" "$@" >"$PROBE_LOG" 2>"$PROBE_LOG.debug"
	PROBE_RC=$?
	set -e
	info "probe $* -> exit $PROBE_RC: $(tr '\n' ' ' <"$PROBE_LOG")"
}
probe_value() { grep -m1 "^$1=" "$PROBE_LOG" | cut -d= -f2- || true; }

section "vivid's inputs and standards"
INPUTS=$(route_list $CAP inputs)
info "inputs: $INPUTS"
WEBCAM=$(route_index $CAP inputs Webcam) || fatal "vivid has no webcam input"
TV=$(route_index $CAP inputs TV) || fatal "vivid has no TV input"
SVIDEO=$(route_index $CAP inputs S-Video) || fatal "vivid has no S-Video input"
HDMI=$(route_index $CAP inputs HDMI) || fatal "vivid has no HDMI input"
v4l2-ctl -d $CAP -i "$SVIDEO" >/dev/null
info "S-Video standards: $(v4l2-ctl -d $CAP --list-standards 2>&1 | grep -c 'Name') enumerated; current $(drv_std $CAP)"

# select_check INPUT NORM: driver left on the webcam, INPUT on the other standard
select_check() {
	local input=$1 norm=$2 tag="in$1-$2" dir caps other=${OTHER[$2]}
	v4l2-ctl -d $CAP -i "$input" -s "${STD_V4L2CTL[$other]}" >/dev/null
	v4l2-ctl -d $CAP -i "$WEBCAM" >/dev/null
	info "before: input $(drv_route $CAP input), input $input on $other"
	dir=$(fresh_dir "$tag")
	gst "$tag" 60 fgrabsrc name=src device=$CAP input="$input" norm="$norm" num-buffers=3 \
		! multifilesink location="$dir/frame-%05d.raw"
	expect_eq "$tag: gst-launch exit status" "$KT_RC" 0
	[ "$KT_RC" -eq 0 ] || show_log "$KT_LOG"
	caps=$(src_caps "$KT_LOG")
	info "caps: $caps"
	expect_eq "$tag: caps size is $norm's" "$(caps_field "$caps" width)x$(caps_field "$caps" height)" "${STD_SIZE[$norm]}"
	expect_eq "$tag: caps framerate is $norm's nominal rate" "$(caps_field "$caps" framerate)" "${STD_RATE[$norm]}"
	drv_fmt $CAP
	frames "$dir"
	expect_eq "$tag: frames with num-buffers=3" "$FR_N" 3
	expect_eq "$tag: frame size is the driver's image size" "$FR_SIZES" "$DRV_SIZE"
	expect_eq "$tag: driver's input afterwards (G_INPUT)" "$(drv_route $CAP input)" "$input"
	expect_eq "$tag: driver's standard afterwards (G_STD)" "$(drv_std $CAP)" "${STD_HEX[$norm]}"
	drv_parm $CAP
	expect_eq "$tag: driver's rate afterwards (G_PARM)" "$DRV_FPS" "${STD_RATE[$norm]}"
}

section "TV input ($TV)"
select_check "$TV" PAL
select_check "$TV" NTSC
section "S-Video input ($SVIDEO)"
select_check "$SVIDEO" PAL
select_check "$SVIDEO" NTSC

section "unset input and norm keep the driver's, and read them back"
v4l2-ctl -d $CAP -i "$SVIDEO" -s ntsc >/dev/null
gst keep 60 fgrabsrc name=src device=$CAP num-buffers=2 ! fakesink
expect_eq "keep: gst-launch exit status" "$KT_RC" 0
caps=$(src_caps "$KT_LOG")
expect_eq "keep: caps from the driver's NTSC" "$(caps_field "$caps" height)/$(caps_field "$caps" framerate)" 480/30000/1001
expect_eq "keep: driver's input unchanged" "$(drv_route $CAP input)" "$SVIDEO"
expect_eq "keep: driver's standard unchanged" "$(drv_std $CAP)" "${STD_HEX[NTSC]}"
probe_run keep fgrabsrc $CAP
expect_eq "keep: probe exit status" "$PROBE_RC" 0
expect_eq "keep: input reads back the driver's" "$(probe_value input)" "$SVIDEO"
expect_eq "keep: norm reads back the driver's" "$(probe_value norm)" NTSC
if grep -Eq 'S_(INPUT|STD)' "$PROBE_LOG.debug"; then
	fail "keep: the device layer issued S_INPUT/S_STD ($(grep -Eo 'S_(INPUT|STD)[^"]*' "$PROBE_LOG.debug" | head -n2 | tr '\n' ' '))"
else
	pass "keep: no S_INPUT or S_STD issued (device layer debug log)"
fi
PROBE_CAPS="video/x-raw,width=720,height=576,framerate=25/1|video/x-raw,framerate=30000/1001" \
	probe_run readback fgrabsrc $CAP input="$TV" norm=PAL
expect_eq "readback: input=$TV norm=PAL, input property" "$(probe_value input)" "$TV"
expect_eq "readback: norm property" "$(probe_value norm)" PAL
# vivid scales on these inputs: the sizes are ranges, the rate is the standard's
expect_eq "readback: every caps structure at READY has PAL's rate" \
	"$(grep '^caps=' "$PROBE_LOG" | grep -vc '@25/1$' || true)" 0
expect_eq "readback: caps at READY take 720x576 at 25/1" "$(probe_value accepts1)" yes
expect_eq "readback: caps at READY refuse NTSC's 30000/1001" "$(probe_value accepts2)" no

section "errors"
# error_case TAG REGEX PIPELINE...: fails by itself with REGEX in the ERROR line
error_case() {
	local tag=$1 re=$2
	shift 2
	gst "$tag" 30 "$@"
	case $KT_RC in
	0) fail "$tag: gst-launch succeeded, an error was expected" ;;
	124 | 137) fail "$tag: gst-launch hung (killed by the timeout)" ;;
	*) pass "$tag: fails (exit $KT_RC)" ;;
	esac
	expect_log "$tag: error says /$re/" "^ERROR: .*$re"
}
error_case webcam-pal "Input $WEBCAM \('[^']*'\) of device '$CAP' has no analog video standards" \
	fgrabsrc device=$CAP input="$WEBCAM" norm=PAL num-buffers=1 ! fakesink
expect_log "webcam-pal: the error names the inputs that have standards" \
	"The inputs with standards are: .*$TV '.*$SVIDEO '"
error_case hdmi-ntsc "Input $HDMI \('[^']*'\) of device '$CAP' has no analog video standards" \
	fgrabsrc device=$CAP input="$HDMI" norm=NTSC num-buffers=1 ! fakesink
error_case bad-input "Device '$CAP' has no input 9\. Its inputs are: " \
	fgrabsrc device=$CAP input=9 num-buffers=1 ! fakesink
expect_log "bad-input: the error lists every input by name" "Its inputs are: ${INPUTS//\'/.}\."

section "fgrabsink: output and standard on vivid's output node"
OUTPUTS=$(route_list $OUT outputs)
info "outputs: $OUTPUTS"
OSVIDEO=$(route_index $OUT outputs S-Video) || fatal "vivid has no S-Video output"
OHDMI=$(route_index $OUT outputs HDMI) || fatal "vivid has no HDMI output"
v4l2-ctl -d $OUT -o "$OSVIDEO" >/dev/null
v4l2-ctl -d $OUT -s pal >/dev/null
v4l2-ctl -d $OUT -o "$OHDMI" >/dev/null
info "before: output $(drv_route $OUT output), S-Video on PAL"
PROBE_CAPS="video/x-raw,format=YUY2,width=720,height=480,interlace-mode=interleaved" \
	probe_run sink-ntsc fgrabsink $OUT output="$OSVIDEO" norm=NTSC
expect_eq "sink-ntsc: probe exit status" "$PROBE_RC" 0
expect_eq "sink-ntsc: output property" "$(probe_value output)" "$OSVIDEO"
expect_eq "sink-ntsc: norm property" "$(probe_value norm)" NTSC
expect_eq "sink-ntsc: driver's output afterwards (G_OUTPUT)" "$(drv_route $OUT output)" "$OSVIDEO"
expect_eq "sink-ntsc: driver's output standard afterwards (G_STD)" "$(drv_std $OUT)" "${STD_HEX[NTSC]}"
expect_eq "sink-ntsc: sink caps at READY take interlaced 720x480" "$(probe_value accepts1)" yes
out_size=$(v4l2-ctl -d $OUT --get-fmt-video-out 2>&1 | grep -m1 'Width/Height' | tr -d ' \t' || true)
expect_eq "sink-ntsc: driver's output format follows NTSC" "$out_size" "Width/Height:720/480"

# A whole run: vivid-out's write() may refuse frames on this kernel (sink-vivid.sh);
# what must not fail is the selection.
v4l2-ctl -d $OUT -s pal >/dev/null
v4l2-ctl -d $OUT -o "$OHDMI" >/dev/null
GST_DEBUG=fgrabsink:4 gst sink-run 60 videotestsrc num-buffers=2 \
	! "video/x-raw,format=YUY2,width=720,height=480,interlace-mode=interleaved,framerate=30000/1001" \
	! fgrabsink device=$OUT output="$OSVIDEO" norm=NTSC
case $KT_RC in
0) pass "sink-run: gst-launch wrote the frames (exit 0)" ;;
124 | 137) fail "sink-run: gst-launch hung" ;;
*)
	expect_log "sink-run: the only error is the driver's write() refusal" \
		"ERROR: from element .*fgrabsink0: Device '$OUT' does not support write\(\)"
	;;
esac
expect_no_log "sink-run: no error about the output or standard" 'ERROR: .*(output [0-9]|video standard)'
expect_eq "sink-run: driver's output afterwards" "$(drv_route $OUT output)" "$OSVIDEO"
expect_eq "sink-run: driver's output standard afterwards" "$(drv_std $OUT)" "${STD_HEX[NTSC]}"

error_case sink-hdmi-pal "Output $OHDMI \('[^']*'\) of device '$OUT' has no analog video standards" \
	videotestsrc num-buffers=1 ! fgrabsink device=$OUT output="$OHDMI" norm=PAL
error_case sink-bad-output "Device '$OUT' has no output 7\. Its outputs are: " \
	videotestsrc num-buffers=1 ! fgrabsink device=$OUT output=7

v4l2-ctl -d $CAP -i 0 >/dev/null
kt_finish
