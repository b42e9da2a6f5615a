#!/bin/bash
# Streaming vivid's capture over the network, on the guest's loopback
# interface (127.0.0.1; the VM has no other network), with the command lines
# of docs/guide.md's "Streaming further" section, checked to be there
# verbatim:
# - RTSP: examples/rtsp-server.py serves vivid's webcam input (320x180 at
#   30 fps) as H.264; GStreamer's rtspsrc (300 frames) and FFmpeg over TCP
#   (30 frames, joining once rtspsrc decodes) play at the same time, each decoding frames of the capture's
#   size and rate; one shared pipeline (vivid gives read() to one opener at
#   a time, so two clients decoding at once is one open node); rtspsrc goes
#   on after FFmpeg left. vivid's output node is refused with exit 1 and the
#   element's message; SIGTERM ends the server with exit 0.
# - SRT: the capture encoded to H.264 in MPEG-TS into srtsink (listener);
#   srtsrc and FFmpeg's srt input receive at the same time, 60 frames each.
# - RTP over UDP: the H.264 receiver decodes 60 frames from the sender.
# Every client's frame count, size and rate is printed ("client: ..." lines).
#@vivid: n_devs=1 node_types=0x101
#@v4l2loopback: none
# shellcheck source=../lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"

CAP=/dev/video0 OUT=/dev/video1
W=320 H=180 RATE=30/1 FFRATE=30
GUIDE=${FGRAB_SOURCE_DIR:?FGRAB_SOURCE_DIR not set}/docs/guide.md
cd "$FGRAB_SOURCE_DIR" # the recipes name examples/ relative to the source tree
require_element fgrabsrc
# the other elements and GstRtspServer in one process (each gst-inspect-1.0
# costs seconds under TCG)
"$KT_PYTHON" -c '
import sys, gi
gi.require_version("Gst", "1.0")
gi.require_version("GstRtspServer", "1.0")
from gi.repository import Gst, GstRtspServer
Gst.init(None)
missing = [e for e in sys.argv[1:] if Gst.ElementFactory.find(e) is None]
sys.exit("missing elements: " + " ".join(missing) if missing else 0)
' x264enc avdec_h264 h264parse rtph264pay rtph264depay srtsink srtsrc mpegtsmux tsdemux rtspsrc ||
	fatal "elements or GstRtspServer missing (tests/kernel/vm.sh install)"

# the guest has no network configured: its loopback interface only
ip link set lo up 2>/dev/null || busybox ip link set lo up || fatal "cannot bring lo up"
info "lo: $(ip -brief addr show lo 2>/dev/null || busybox ip addr show lo | head -n3)"

# The recipes, as docs/guide.md writes them.
RTSP_SERVER="examples/rtsp-server.py --device /dev/video0 --port 8554 --mount cam --caps video/x-raw,width=320,height=180,framerate=30/1"
RTSP_GST="gst-launch-1.0 -v rtspsrc location=rtsp://127.0.0.1:8554/cam ! rtph264depay ! h264parse ! avdec_h264 ! fakesink num-buffers=300 sync=false silent=false"
RTSP_FFMPEG="ffmpeg -nostdin -rtsp_transport tcp -i rtsp://127.0.0.1:8554/cam -frames:v 30 -f null -"
SRT_SEND='gst-launch-1.0 -e fgrabsrc device=/dev/video0 ! video/x-raw,width=320,height=180,framerate=30/1 ! videoconvert ! video/x-raw,format=I420 ! x264enc tune=zerolatency speed-preset=ultrafast key-int-max=30 ! h264parse config-interval=-1 ! mpegtsmux alignment=7 ! srtsink uri="srt://:8888?mode=listener" wait-for-connection=false'
SRT_GST="gst-launch-1.0 -v srtsrc uri=srt://127.0.0.1:8888 ! tsdemux ! h264parse ! avdec_h264 ! fakesink num-buffers=60 sync=false silent=false"
SRT_FFMPEG="ffmpeg -nostdin -i srt://127.0.0.1:8888 -frames:v 60 -f null -"
RTP_RECV='gst-launch-1.0 -v udpsrc port=5004 caps="application/x-rtp,media=video,encoding-name=H264,payload=96,clock-rate=90000" ! rtph264depay ! h264parse ! avdec_h264 ! fakesink num-buffers=60 sync=false silent=false'
RTP_SEND="gst-launch-1.0 -e fgrabsrc device=/dev/video0 ! video/x-raw,width=320,height=180,framerate=30/1 ! videoconvert ! video/x-raw,format=I420 ! x264enc tune=zerolatency speed-preset=ultrafast key-int-max=30 ! rtph264pay config-interval=-1 pt=96 ! udpsink host=127.0.0.1 port=5004"

section "The recipes are docs/guide.md's, verbatim"
for line in "$RTSP_SERVER" "$RTSP_GST" "$RTSP_FFMPEG" "$SRT_SEND" "$SRT_GST" "$SRT_FFMPEG" "$RTP_RECV" "$RTP_SEND"; do
	if grep -Fqx -- "    $line" "$GUIDE"; then
		pass "in docs/guide.md: $line"
	else
		fail "not in docs/guide.md (test and guide must agree): $line"
	fi
done

# start NAME GUARD LINE: runs a recipe in the background as the shell
# would, ended by timeout(1) after GUARD s (status 124; a signal sent to
# KT_PID reaches the recipe through timeout); sets KT_PID and KT_LOG.
start() {
	KT_LOG=$KT_LOGS/$1.log
	# --foreground: timeout passes a signal to the recipe alone (without it,
	# to the recipe and again to its process group: gst-launch -e took the
	# second SIGINT for "stop now, no EOS")
	timeout --foreground -k 5 "$2" bash -c "exec $3" >"$KT_LOG" 2>&1 </dev/null &
	KT_PID=$!
	info "started ($1, pid $KT_PID): $3"
}

# finish PID: waits for a recipe to end (no polling: a loop of sleeps costs
# seconds a round under TCG); sets KT_RC and FIN_MS, the time it ended.
finish() {
	set +e
	wait "$1"
	KT_RC=$?
	set -e
	FIN_MS=$(now_ms)
}

# gst_client NAME LOG: what a '-v ... fakesink ... silent=false' client
# decoded; sets C_N, C_SIZE, C_RATE and prints the client line. The caps
# are the ones of the caps event the sink got (its last-message; gst-launch
# does not always print the pad's caps notification; GStreamer 1.28 names
# the field's type "caps", earlier ones "GstCaps").
gst_client() {
	local line caps="" re='GstFakeSink:[^:]*: last-message = event .*GstEventCaps, caps=\((GstCaps|caps)\)"([^"]*)"'
	C_N=0
	while IFS= read -r line; do
		if [[ $line =~ GstFakeSink:[^:]*:\ last-message\ =\ chain ]]; then
			C_N=$((C_N + 1))
		elif [ -z "$caps" ] && [[ ${line//\\/} =~ $re ]]; then
			caps=${BASH_REMATCH[2]}
		fi
	done <"$2"
	C_SIZE="$(caps_field "$caps" width)x$(caps_field "$caps" height)"
	C_RATE=$(caps_field "$caps" framerate)
	info "client: $1: exit $KT_RC, $C_N frames $C_SIZE at $C_RATE fps"
}

# ffmpeg_client NAME LOG: the same for an 'ffmpeg ... -f null -' client
# (its last progress line, its output stream's description); C_RATE is
# rounded to a whole number.
ffmpeg_client() {
	local line out=0 re=', ([0-9]+)x([0-9]+)[ ,].*, ([0-9.]+) fps'
	C_N=0 C_SIZE="?" C_RATE="?"
	while IFS= read -r line; do
		[[ $line == Output\ #0* ]] && out=1
		if [ "$out" -eq 1 ] && [[ $line =~ Stream\ #0:0.*Video:.* ]] && [[ $line =~ $re ]]; then
			C_SIZE="${BASH_REMATCH[1]}x${BASH_REMATCH[2]}" C_RATE=${BASH_REMATCH[3]}
		fi
		[[ $line =~ ^frame=\ *([0-9]+) ]] && C_N=${BASH_REMATCH[1]}
	done < <(tr '\r' '\n' <"$2")
	info "client: $1: exit $KT_RC, $C_N frames $C_SIZE at $C_RATE fps"
	# FFmpeg's rate over RTSP is its estimate from the packets' times
	# (29.92 under a loaded TCG): compared rounded to a whole number
	[ "$C_RATE" = "?" ] || printf -v C_RATE '%.0f' "$C_RATE"
}

# expect_client TAG FRAMES RATE LOG: the last client ended by itself with
# FRAMES frames of the capture's size at RATE.
expect_client() {
	expect_eq "$1: exit status" "$KT_RC" 0
	expect_eq "$1: frames decoded" "$C_N" "$2"
	expect_eq "$1: frame size (the capture's)" "$C_SIZE" "${W}x$H"
	expect_eq "$1: frame rate (the capture's)" "$C_RATE" "$3"
	if [ "$KT_RC" -ne 0 ] || [ "$C_N" -ne "$2" ]; then show_log "$4"; fi
}

v4l2-ctl -d $CAP -i 0 >/dev/null || fatal "cannot select vivid input 0"

section "RTSP: rtsp-server.py on vivid, rtspsrc and FFmpeg at the same time"
start rtsp-server 300 "$RTSP_SERVER"
srv_pid=$KT_PID srv_log=$KT_LOG
if wait_for_log "$srv_log" '^url: ' 90; then
	expect_eq "the server's URL" "$(log_match '^url: (.*)$' "$srv_log")" rtsp://127.0.0.1:8554/cam
	start rtspsrc 180 "$RTSP_GST"
	gst_pid=$KT_PID gst_log=$KT_LOG
	# FFmpeg joins once rtspsrc decodes (gst-launch takes many seconds to
	# start under TCG), and leaves long before rtspsrc's 300 frames (10 s)
	if wait_for_log "$gst_log" 'last-message = chain' 120; then
		pass "rtspsrc decodes"
	else
		fail "rtspsrc decoded nothing within 120 s"
	fi
	start ffmpeg-rtsp 120 "$RTSP_FFMPEG"
	ff_pid=$KT_PID ff_log=$KT_LOG
	finish "$ff_pid"
	ff_end=$FIN_MS
	ffmpeg_client "ffmpeg (rtsp, tcp)" "$ff_log"
	expect_client "ffmpeg rtsp" 30 "$FFRATE" "$ff_log"
	finish "$gst_pid"
	gst_end=$FIN_MS
	gst_client rtspsrc "$gst_log"
	expect_client rtspsrc 300 "$RATE" "$gst_log"
	if [ "$gst_end" -gt "$ff_end" ]; then
		pass "rtspsrc went on after FFmpeg left ($((gst_end - ff_end)) ms later)"
	else
		fail "rtspsrc ended before FFmpeg: the 'client leaving' case was not exercised"
	fi
	# the driver's state from a new handle: what the clients decoded is
	# the capture's format
	drv_fmt $CAP
	drv_parm $CAP
	expect_eq "vivid's format (G_FMT) is the size decoded" "${DRV_W}x$DRV_H" "${W}x$H"
	expect_eq "vivid's rate (G_PARM) is the rate decoded" "$DRV_FPS" "$RATE"
else
	fail "rtsp-server.py printed no URL within 90 s"
fi
kill -TERM "$srv_pid" 2>/dev/null || true
finish "$srv_pid"
info "server: \$ $RTSP_SERVER -> exit $KT_RC after SIGTERM"
sed 's/^/    | /' "$srv_log"
expect_eq "server: exit status after SIGTERM" "$KT_RC" 0
expect_log "server: says it stopped on SIGTERM" '^stopped: SIGTERM$' "$srv_log"
expect_eq "server: one pipeline for both clients (the node opened once)" \
	"$(grep -c '^capture: started' "$srv_log")" 1
expect_eq "server: two clients connected" "$(grep -c '^client: connected' "$srv_log")" 2

section "RTSP: vivid's output node is refused"
KT_LOG=$KT_LOGS/rtsp-server-output-node.log
set +e
timeout -k 5 60 examples/rtsp-server.py --device $OUT --port 8554 --mount out >"$KT_LOG" 2>&1 </dev/null
KT_RC=$?
set -e
info "\$ examples/rtsp-server.py --device $OUT --port 8554 --mount out -> exit $KT_RC"
sed 's/^/    | /' "$KT_LOG"
expect_eq "output node: exit status" "$KT_RC" 1
expect_log "output node: the message names the node" "^error: .*$OUT"
expect_no_log "output node: no URL printed" '^url: '

section "SRT: H.264 in MPEG-TS, srtsrc and FFmpeg at the same time"
start srt-sender 240 "$SRT_SEND"
snd_pid=$KT_PID snd_log=$KT_LOG
if wait_for_log "$snd_log" '^Setting pipeline to PLAYING' 60; then
	sleep 1 # srtsink listens once it plays
	start srtsrc 120 "$SRT_GST"
	gst_pid=$KT_PID gst_log=$KT_LOG
	start ffmpeg-srt 120 "$SRT_FFMPEG"
	ff_pid=$KT_PID ff_log=$KT_LOG
	finish "$gst_pid"
	gst_client srtsrc "$gst_log"
	expect_client srtsrc 60 "$RATE" "$gst_log"
	finish "$ff_pid"
	ffmpeg_client "ffmpeg (srt)" "$ff_log"
	expect_client "ffmpeg srt" 60 "$FFRATE" "$ff_log"
else
	fail "the SRT sender did not start playing within 60 s"
fi
kill -INT "$snd_pid" 2>/dev/null || true
finish "$snd_pid"
expect_eq "SRT sender: exit status after SIGINT (-e: EOS)" "$KT_RC" 0
expect_no_log "SRT sender: no error" '^ERROR' "$snd_log"

section "RTP over UDP: H.264"
start rtp-receiver 120 "$RTP_RECV"
rcv_pid=$KT_PID rcv_log=$KT_LOG
if wait_for_log "$rcv_log" '^Setting pipeline to PLAYING' 60; then
	start rtp-sender 120 "$RTP_SEND"
	snd_pid=$KT_PID snd_log=$KT_LOG
	finish "$rcv_pid"
	gst_client "rtp receiver" "$rcv_log"
	expect_client "rtp receiver" 60 "$RATE" "$rcv_log"
	kill -INT "$snd_pid" 2>/dev/null || true
	finish "$snd_pid"
	expect_eq "RTP sender: exit status after SIGINT (-e: EOS)" "$KT_RC" 0
	expect_no_log "RTP sender: no error" '^ERROR' "$snd_log"
else
	fail "the RTP receiver did not start within 60 s"
	kill "$rcv_pid" 2>/dev/null || true
	finish "$rcv_pid"
fi

kt_finish
