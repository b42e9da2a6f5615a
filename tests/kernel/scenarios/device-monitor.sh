#!/bin/bash
# fgrabdeviceprovider and the fgrab URI scheme against vivid and v4l2loopback.
#  - gst-device-monitor-1.0 Video/Source Video/Sink lists vivid's capture node
#    as a Video/Source made with fgrabsrc, vivid's output node and the loopback
#    node as Video/Sinks made with fgrabsink, each with its card name, caps and
#    device.api=fgrab (where v4l2's own provider lists the same nodes, it
#    says device.api=v4l2);
#  - uridecodebin uri=fgrab:///dev/video0 captures frames through fgrabsrc;
#  - a running gst-device-monitor-1.0 -f sees nodes go and come: vivid and
#    v4l2loopback unloaded and loaded again (inotify on /dev; no udev runs in
#    the VM; v4l2's provider, which goes through udev, is ranked out there so
#    that every event in that log is ours).
# An idle v4l2loopback node (no writer) is a Video/Sink, and also a
# Video/Source where it offers capture formats without a writer: 0.15 does,
# 0.12 offers them only while a writer is attached (docs/device-monitor.md).
# The monitor's output goes to the console (the log of this group).
#@vivid: n_devs=1 node_types=0x101
#@v4l2loopback: devices=1 video_nr=10 card_label=loop
# shellcheck source=../lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"

CAP=/dev/video0
OUT=/dev/video1
LOOP=/dev/video10
export GST_DEBUG_NO_COLOR=1

require_element fgrabsrc
require_element fgrabsink
command -v gst-device-monitor-1.0 >/dev/null ||
	fatal "gst-device-monitor-1.0 missing (Debian: gstreamer1.0-plugins-base-apps)"

card_of() { v4l2-ctl -d "$1" --info 2>/dev/null | sed -n 's/^[[:space:]]*Card type[[:space:]]*: //p' | head -n1; }

# print_log FILE: the whole log, indented, for the record.
print_log() {
	printf '    --- %s\n' "$(basename "$1")"
	sed 's/^/    | /' "$1"
}

# blocks FILE: one line per "Device found:" block of a gst-device-monitor-1.0
# log: api|class|path|io-method|name|launch line|first caps structure
blocks() {
	awk '
	function flush() {
		if (inblk) print api "|" cls "|" path "|" io "|" name "|" launch "|" caps
		inblk = 0; api = cls = path = io = name = launch = caps = ""
	}
	/^Device found:/ { flush(); inblk = 1; next }
	/^Device removed:/ { flush(); next }
	!inblk { next }
	/^\tname  : / { name = substr($0, 10) }
	/^\tclass : / { cls = substr($0, 10) }
	/^\tcaps  : / { caps = substr($0, 10) }
	/^\t\tdevice\.api = / { api = $3 }
	/^\t\tdevice\.path = / { path = $3 }
	/^\t\tfgrab\.io-method = / { io = $3 }
	/gst-launch-1\.0 / { sub(/^\t/, ""); launch = $0 }
	END { flush() }
	' "$1"
}

# find_block FILE API CLASS PATH: the block line (empty if none).
find_block() {
	local line
	while IFS= read -r line; do
		IFS='|' read -r b_api b_cls b_path _ <<<"$line"
		if [ "$b_api" = "$2" ] && [ "$b_cls" = "$3" ] && [ "$b_path" = "$4" ]; then
			echo "$line"
			return 0
		fi
	done < <(blocks "$1")
	echo ""
}

# expect_device TAG FILE CLASS PATH ELEMENT IO CARD
expect_device() {
	local tag=$1 log=$2 cls=$3 path=$4 elem=$5 io=$6 card=$7 line b_io b_name b_launch b_caps
	line=$(find_block "$log" fgrab "$cls" "$path")
	if [ -z "$line" ]; then
		fail "$tag: no fgrab $cls for $path in $(basename "$log")"
		return 0
	fi
	pass "$tag: $path listed as $cls with device.api=fgrab"
	IFS='|' read -r _ _ _ b_io b_name b_launch b_caps <<<"$line"
	expect_eq "$tag: name is the card name" "$b_name" "$card"
	expect_eq "$tag: fgrab.io-method" "$b_io" "$io"
	if [[ $b_launch =~ (^|[[:space:]])$elem([[:space:]]|$) ]]; then
		pass "$tag: element is $elem ($b_launch)"
	else
		fail "$tag: launch line '$b_launch' does not make $elem"
	fi
	# the defaults are /dev/video0 (fgrabsrc) and /dev/video1 (fgrabsink):
	# gst-device-monitor only prints properties that differ from them,
	# GStreamer 1.28's quoted (device='/dev/video11')
	local dflt=/dev/video0
	[ "$elem" = fgrabsink ] && dflt=/dev/video1
	if [ "$path" = "$dflt" ] || [[ $b_launch == *"device=$path"* ]] ||
		[[ $b_launch == *"device='$path'"* ]]; then
		pass "$tag: element's device is $path"
	else
		fail "$tag: launch line '$b_launch' does not set device=$path"
	fi
	if [[ $b_caps == video/x-raw* ]] || [[ $b_caps == image/* ]]; then
		pass "$tag: has caps ($b_caps)"
	else
		fail "$tag: caps '$b_caps'"
	fi
}

# count_in FILE REGEX: lines of FILE matching REGEX
count_in() { grep -cE -- "$2" "$1" 2>/dev/null || true; }

# wait_count FILE REGEX N SECONDS: until FILE has N lines matching REGEX
wait_count() {
	local i
	for ((i = 0; i < $4 * 10; i++)); do
		[ "$(count_in "$1" "$2")" -ge "$3" ] && return 0
		sleep 0.1
	done
	return 1
}

# LOOP_SOURCE: whether the idle loopback node has capture formats (0.15),
# so that it is listed as a Video/Source too; LOOP_N its devices.
LOOP_SOURCE=no
if v4l2-ctl -d $LOOP --list-formats 2>/dev/null | grep -qE "^[[:space:]]*\[[0-9]+\]"; then
	LOOP_SOURCE=yes
fi
LOOP_N=1
[ "$LOOP_SOURCE" = no ] || LOOP_N=2
info "v4l2loopback $(modinfo -F version v4l2loopback 2>/dev/null || echo "?"): idle node has capture formats: $LOOP_SOURCE ($LOOP_N devices)"

CAP_CARD=$(card_of $CAP)
OUT_CARD=$(card_of $OUT)
LOOP_CARD=$(card_of $LOOP)
info "cards: $CAP '$CAP_CARD', $OUT '$OUT_CARD', $LOOP '$LOOP_CARD'"

section "gst-device-monitor-1.0 Video/Source Video/Sink"
LIST=$KT_LOGS/monitor-list.log
set +e
timeout -k 5 180 gst-device-monitor-1.0 Video/Source Video/Sink >"$LIST" 2>&1 </dev/null
rc=$?
set -e
print_log "$LIST"
expect_eq "gst-device-monitor-1.0 exit status" "$rc" 0
expect_device "vivid capture" "$LIST" Video/Source $CAP fgrabsrc read "$CAP_CARD"
expect_device "vivid output" "$LIST" Video/Sink $OUT fgrabsink write "$OUT_CARD"
expect_device "loopback" "$LIST" Video/Sink $LOOP fgrabsink write "$LOOP_CARD"
if [ "$LOOP_SOURCE" = yes ]; then
	expect_device "loopback source" "$LIST" Video/Source $LOOP fgrabsrc read "$LOOP_CARD"
else
	expect_eq "idle loopback node without capture formats is not an fgrab source" \
		"$(find_block "$LIST" fgrab Video/Source $LOOP)" ""
fi
expect_eq "vivid capture node is not an fgrab sink" "$(find_block "$LIST" fgrab Video/Sink $CAP)" ""
expect_eq "vivid output node is not an fgrab source" "$(find_block "$LIST" fgrab Video/Source $OUT)" ""
if [ -n "$(find_block "$LIST" v4l2 Video/Source $CAP)" ]; then
	info "v4l2's provider lists $CAP too (device.api=v4l2), told apart by device.api"
else
	info "v4l2's provider lists nothing here (it enumerates through udev, which does not run in the VM)"
fi

section "URI: uridecodebin uri=fgrab://$CAP"
dir=$(fresh_dir uri)
# identity ends the stream on its 6th buffer, which it does not pass on
gst uri-decodebin 120 uridecodebin uri=fgrab://$CAP ! identity eos-after=6 ! multifilesink location="$dir/frame-%05d.raw"
if [ "$KT_RC" -ne 0 ]; then
	fail "uridecodebin: gst-launch exit status $KT_RC"
	show_log "$KT_LOG"
else
	pass "uridecodebin uri=fgrab://$CAP ran to EOS"
fi
expect_log "uridecodebin made fgrabsrc as its source" 'GstURIDecodeBin:[^/]*/GstFgrabSrc:source'
frames "$dir"
drv_fmt $CAP
expect_eq "uridecodebin: frames captured" "$FR_N" 5
expect_eq "uridecodebin: each frame is the driver's image size" "$FR_SIZES" "$DRV_SIZE"

section "hot-plug: gst-device-monitor-1.0 -f while drivers go and come"
MON=$KT_LOGS/monitor-follow.log
# no udev in the VM: v4l2's provider would list but never update
GST_PLUGIN_FEATURE_RANK=v4l2deviceprovider:NONE \
	gst-device-monitor-1.0 -f Video/Source Video/Sink >"$MON" 2>&1 </dev/null &
mon=$!
if ! wait_for_log "$MON" "^Monitoring devices" 120; then
	fail "gst-device-monitor-1.0 -f did not start monitoring"
	print_log "$MON"
	kill -KILL $mon 2>/dev/null || true
	kt_finish
fi
# the devices present at start come as "Device found" after that line
initial=$((2 + LOOP_N))
if wait_count "$MON" '^Device found:' $initial 60; then
	pass "initial devices of the fgrab provider alone: vivid capture, output, loopback ($LOOP_N)"
else
	fail "initial devices: $(count_in "$MON" '^Device found:'), want $initial"
fi

info "modprobe -r v4l2loopback"
modprobe -r v4l2loopback || fail "modprobe -r v4l2loopback failed"
if wait_count "$MON" '^Device removed:' $LOOP_N 60; then
	pass "loopback unloaded: Device removed reported ($LOOP_N)"
else
	fail "loopback unloaded: no Device removed within 60 s"
fi

info "modprobe -r vivid"
modprobe -r vivid || fail "modprobe -r vivid failed"
if wait_count "$MON" '^Device removed:' $((LOOP_N + 2)) 60; then
	pass "vivid unloaded: its capture and output devices removed"
else
	fail "vivid unloaded: $(count_in "$MON" '^Device removed:') Device removed, want $((LOOP_N + 2)) in all"
fi

info "modprobe vivid n_devs=1 node_types=0x101"
modprobe vivid n_devs=1 node_types=0x101 || fail "modprobe vivid failed"
if wait_count "$MON" '^Device found:' $((initial + 2)) 60; then
	pass "vivid loaded again: two devices found"
else
	fail "vivid loaded again: $(($(count_in "$MON" '^Device found:') - initial)) new devices, want 2"
fi

info "modprobe v4l2loopback devices=1 video_nr=11 card_label=fgrab-hotplug"
modprobe v4l2loopback devices=1 video_nr=11 card_label=fgrab-hotplug ||
	fail "modprobe v4l2loopback failed"
if wait_count "$MON" '^Device found:' $((initial + 2 + LOOP_N)) 60; then
	pass "loopback loaded again: its device found"
else
	fail "loopback loaded again: no new device found"
fi

kill -INT $mon 2>/dev/null || true
wait_exit $mon 20 || true
print_log "$MON"

expect_eq "devices found in all ($initial at start, $initial plugged in)" "$(count_in "$MON" '^Device found:')" $((2 * initial))
expect_eq "devices removed in all" "$(count_in "$MON" '^Device removed:')" $initial
# what was added after the drivers were unloaded: the log from the first
# removal on
LATER=$KT_LOGS/monitor-follow-later.log
sed -n '/^Device removed:/,$p' "$MON" >"$LATER"
expect_device "re-added vivid capture" "$LATER" Video/Source $CAP fgrabsrc read "$CAP_CARD"
expect_device "re-added vivid output" "$LATER" Video/Sink $OUT fgrabsink write "$OUT_CARD"
expect_device "hot-plugged loopback" "$LATER" Video/Sink /dev/video11 fgrabsink write fgrab-hotplug
[ "$LOOP_SOURCE" = no ] ||
	expect_device "hot-plugged loopback source" "$LATER" Video/Source /dev/video11 fgrabsrc read fgrab-hotplug
removed_names=$(awk '/^Device removed:/ { getline; sub(/^\tname  : /, ""); print }' "$LATER" | sort | tr '\n' ',')
want_names=$({
	printf '%s\n' "$LOOP_CARD" "$CAP_CARD" "$OUT_CARD"
	[ "$LOOP_SOURCE" = no ] || echo "$LOOP_CARD"
} | sort | tr '\n' ',')
expect_eq "removed devices (names)" "$removed_names" "$want_names"

kt_finish
