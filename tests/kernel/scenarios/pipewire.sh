#!/bin/bash
# PipeWire reads fgrabsink's virtual webcam (Debian 13: PipeWire 1.4.2,
# WirePlumber 0.5.8, v4l2loopback 0.15.0; forky: PipeWire 1.6,
# v4l2loopback 0.15.4; docs/guide.md, "PipeWire").
# Newer desktops reach cameras through PipeWire's V4L2 monitor (and the
# camera portal Firefox and OBS use); here systemd-udevd, a session bus,
# pipewire and wireplumber are started by hand in the VM, headless, as
# root (pipewire/pw-lib.sh says what stands in for a session), and:
# 1. PipeWire started before the writer (a desktop session before the
#    camera is written): WirePlumber lists the v4l2 device but makes no
#    Video/Source node, since the idle exclusive_caps=1 node announces
#    output alone (spa/plugins/v4l2/v4l2-device.c emit_info makes a node
#    only when the device announces capture);
# 2. the writer starting does not change that, nor a udev "change" event
#    (v4l2-udev.c probes a device once: on add, or on change only when it
#    has not announced it yet); restarting WirePlumber while the writer
#    runs makes the node: Video/Source, node.description "<card_label>
#    (V4L2)" (WirePlumber's monitors/v4l2/name-node.lua);
# 3. pipewiresrc target-object=<node.name> reads 30 frames of YUY2
#    640x480 that are byte for byte frames fgrabsink wrote, in order (the
#    writer's tee records each frame's md5; SMPTE bars, whose noise square
#    differs in every frame), and negotiates the format written;
# 4. the writer stopped: the node stays listed and a reader fails at once;
# 5. a new writer, I420 640x480: the same node, pointed at by its
#    object.serial, reads 30 frames equal to the written ones;
# 6. the module unloaded: the node leaves PipeWire's list (udev remove);
#    loaded again with exclusive_caps=0 the node is listed without a
#    writer (it announces capture always), and reads a writer's frames.
#@vivid: none
#@v4l2loopback: devices=1 video_nr=10 card_label=FgrabCam exclusive_caps=1
# shellcheck source=../lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
# shellcheck source=../pipewire/pw-lib.sh
source "$KT_DIR/pipewire/pw-lib.sh"

DEV=/dev/video10
LABEL=FgrabCam
W=640 H=480
N=30
export GST_DEBUG_NO_COLOR=1
T0=$(now_ms)
trap pw_cleanup EXIT
trap 'exit 143' TERM
pw_watchdog 150

for t in pipewire wireplumber pw-dump pw-cli dbus-daemon udevadm /usr/lib/systemd/systemd-udevd; do
	command -v "$t" >/dev/null || fatal "$t is not installed (tests/dist/root.sh installs the pipewire group's packages)"
done
for e in fgrabsink pipewiresrc checksumsink; do require_element "$e"; done
loopback_version
LOOP_EXCLUSIVE=1
info "v4l2loopback $LOOP_VERSION; $(pipewire --version | sed -n 's/^Linked with //p'); $(wireplumber --version | sed -n 's/^Linked with //p')"

section "1: PipeWire started before the writer (exclusive_caps=1, idle node)"
pw_udevd
expect_eq "udev names the node from its card (v4l_id: ID_V4L_PRODUCT)" "$(pw_udev_prop ID_V4L_PRODUCT)" "$LABEL"
expect_eq "udev: the idle node announces output alone (ID_V4L_CAPABILITIES)" "$(pw_udev_prop ID_V4L_CAPABILITIES)" ":video_output:"
pw_session
pw_wireplumber first
if pw_objects device 20; then
	pass "WirePlumber lists the v4l2 device (Video/Device) $PW_MS ms after its start"
else
	fail "WirePlumber listed no Video/Device for $DEV within 20 s"
	show_log "$KT_LOGS/wireplumber-first.log"
fi
expect_eq "the device's description (udev's ID_V4L_PRODUCT)" "$PW_DEV_DESC" "$LABEL"
if pw_objects source 3; then
	fail "a Video/Source node for the idle exclusive_caps=1 node"
else
	pass "no Video/Source node for the idle node (it announces output alone)"
fi
pw_show_listing

section "2: the writer starts after PipeWire probed the node"
pw_writer yuy2 YUY2 $W $H || fatal "fgrabsink did not start writing$(show_log "$WRITER_LOG")"
if pw_objects source 3; then
	fail "a Video/Source node appeared when the writer started"
else
	pass "still no Video/Source node 3 s after the writer started (nothing tells PipeWire)"
fi
udevadm trigger --subsystem-match=video4linux --action=change
udevadm settle --timeout=20 || true
expect_eq "udev after a change event: the node announces capture" "$(pw_udev_prop ID_V4L_CAPABILITIES)" ":capture:"
if pw_objects source 3; then
	fail "a udev change event made the Video/Source node"
else
	pass "a udev change event does not make PipeWire probe the node again"
fi
t=$(now_ms)
pw_wireplumber restarted
if pw_objects source 20; then
	pass "WirePlumber restarted while the writer runs: Video/Source listed $(($(now_ms) - t)) ms after the restart"
else
	fail "no Video/Source node within 20 s of WirePlumber's restart"
	show_log "$KT_LOGS/wireplumber-restarted.log"
fi
pw_show_listing
expect_eq "the node's description (node.description)" "$PW_NODE_DESC" "$LABEL (V4L2)"
expect_eq "the node's nick (node.nick)" "$PW_NODE_NICK" "$LABEL"
info "node.name $PW_NODE_NAME, object.serial $PW_NODE_SERIAL"
pw-cli ls Node >"$KT_LOGS/pw-cli-ls-node.txt" 2>&1 || true
[ -n "$PW_NODE_NAME" ] || fatal "no node to read from"

section "3: pipewiresrc reads YUY2 ${W}x$H (target-object=node.name)"
pw_read yuy2 "$PW_NODE_NAME" $N
pw_expect_read yuy2 $N YUY2 $W $H
pw_writer_stop yuy2
pw_expect_equal yuy2

section "4: the writer stopped"
if pw_objects no-source 3; then
	fail "the Video/Source node left PipeWire's list when the writer stopped"
else
	pass "the Video/Source node stays listed 3 s after the writer stopped"
fi
pw_read no-writer "$PW_NODE_SERIAL" 5
if [ "$READ_RC" -ne 0 ] && grep -q 'no more input formats' "$READ_LOG"; then
	pass "pipewiresrc without a writer fails at once ($KT_MS ms): no more input formats"
else
	fail "pipewiresrc without a writer: exit $READ_RC, $READ_N frames"
	show_log "$READ_LOG"
fi

section "5: a new writer, I420 ${W}x$H, through the same node (target-object=object.serial)"
pw_writer i420 I420 $W $H || fatal "fgrabsink did not start writing$(show_log "$WRITER_LOG")"
pw_read i420 "$PW_NODE_SERIAL" $N
pw_expect_read i420 $N I420 $W $H
pw_writer_stop i420
pw_expect_equal i420

section "6: the module unloaded, and loaded with exclusive_caps=0"
for ((i = 0; i < 50; i++)); do
	modprobe -r v4l2loopback 2>/dev/null && break
	sleep 0.1
done
[ ! -d /sys/module/v4l2loopback ] || fatal "cannot unload v4l2loopback: $(fuser -v $DEV 2>&1 | tr '\n' ' ')"
if pw_objects no-source 10; then
	pass "the Video/Source node leaves PipeWire's list $PW_MS ms after the device went (udev remove)"
else
	fail "the Video/Source node is still listed 10 s after the device went"
fi
modprobe v4l2loopback devices=1 video_nr=10 card_label=$LABEL exclusive_caps=0 ||
	fatal "modprobe v4l2loopback exclusive_caps=0 failed"
LOOP_EXCLUSIVE=0
udevadm settle --timeout=20 || true
if pw_objects source 10; then
	pass "exclusive_caps=0: Video/Source listed without a writer, $PW_MS ms after the load"
else
	fail "exclusive_caps=0: no Video/Source node within 10 s of the load"
fi
pw_writer caps0 YUY2 $W $H || fatal "fgrabsink did not start writing$(show_log "$WRITER_LOG")"
pw_read caps0 "$PW_NODE_NAME" 10
pw_expect_read caps0 10 YUY2 $W $H
pw_writer_stop caps0
pw_expect_equal caps0

section "summary"
if pw_race_fixed; then
	info "PipeWire $PW_VERSION: pipewiresrc started $PW_STARTS times, each once (no start tried again: the start race is fixed in 1.6)"
else
	info "PipeWire $PW_VERSION: pipewiresrc started $PW_STARTS times; $PW_RACES stopped at their start ($PW_CRASHES of them crashed): the start race of PipeWire before 1.6 (pw-lib.sh pw_read)"
fi
info "the group took $(($(now_ms) - T0)) ms"
kt_finish
