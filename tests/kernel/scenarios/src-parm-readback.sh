#!/bin/bash
# fgrabsrc's read() parameters read back what the driver reports: readbuffers,
# capturemode and extendedmode, once the element is configured and streaming,
# equal G_PARM taken from a second handle at the same time (v4l2-ctl --get-parm);
# device-name is the driver's card name. On vivid (webcam and S-Video inputs) and
# on v4l2loopback fed by FFmpeg, whose read-buffer count differs from vivid's.
#@vivid: n_devs=1 node_types=0x101
#@v4l2loopback: devices=1 video_nr=10 card_label=loop max_buffers=3
# shellcheck source=../lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"

require_element fgrabsrc
[ -x "$KT_PYTHON" ] || fatal "$KT_PYTHON missing"

# probe TAG DEVICE CAPS [PROP=VALUE...]: runs fgrab-probe.py props; sets P_<prop>
# (readbuffers capturemode extendedmode device_name), B_<prop> (before start),
# PARM_RB / PARM_HQ (G_PARM from the second handle while streaming).
probe() {
	local tag=$1 dev=$2 caps=$3 line
	shift 3
	P_readbuffers="" P_capturemode="" P_extendedmode="" P_device_name=""
	B_readbuffers="" B_capturemode="" B_extendedmode=""
	PARM_RB="" PARM_HQ=0
	KT_LOG=$KT_LOGS/$tag.log
	set +e
	timeout -k 5 60 "$KT_PYTHON" "$KT_PROBE" props "$dev" "$caps" "$@" >"$KT_LOG" 2>&1
	KT_RC=$?
	set -e
	info "fgrab-probe props $dev '$caps' $* -> exit $KT_RC"
	while IFS= read -r line; do
		case $line in
		prop.device-name=*) P_device_name=${line#*=} ;;
		prop.*=*)
			line=${line#prop.}
			printf -v "P_${line%%=*}" '%s' "${line#*=}"
			;;
		before.*=*)
			line=${line#before.}
			printf -v "B_${line%%=*}" '%s' "${line#*=}"
			;;
		caps=*) info "caps: ${line#caps=}" ;;
		parm:*)
			[[ $line =~ Read\ buffers\ *:\ *([0-9]+) ]] && PARM_RB=${BASH_REMATCH[1]}
			[[ $line =~ [Hh]igh\ [Qq]uality ]] && PARM_HQ=1
			;;
		esac
	done <"$KT_LOG"
	if [ "$KT_RC" -ne 0 ]; then
		fail "$tag: fgrab-probe exit status $KT_RC"
		show_log "$KT_LOG"
		return 1
	fi
	info "before start: readbuffers=$B_readbuffers capturemode=$B_capturemode extendedmode=$B_extendedmode"
	info "streaming: readbuffers=$P_readbuffers capturemode=$P_capturemode extendedmode=$P_extendedmode device-name=$P_device_name"
	info "driver G_PARM (second handle): read buffers $PARM_RB, high quality $PARM_HQ"
	return 0
}

# check_readback TAG: the properties equal the driver's G_PARM values
check_readback() {
	expect_eq "$1: readbuffers reads back the driver's read buffers" "$P_readbuffers" "$PARM_RB"
	expect_eq "$1: capturemode reads back the driver's capture mode" "$P_capturemode" "$PARM_HQ"
	# The V4L2 core clears extendedmode in every S_PARM (no driver uses it).
	expect_eq "$1: extendedmode reads back the driver's (0)" "$P_extendedmode" 0
}

section "vivid webcam (input 0)"
v4l2-ctl -d /dev/video0 -i 0 >/dev/null
card=$(v4l2-ctl -d /dev/video0 --info | sed -n 's/.*Card type *: *//p')
WEBCAM='video/x-raw,format=YUY2,width=320,height=180,framerate=30/1'
if probe vivid-default /dev/video0 "$WEBCAM"; then
	expect_eq "vivid-default: readbuffers before configuration is the request (0)" "$B_readbuffers" 0
	check_readback vivid-default
	if [ -n "$PARM_RB" ] && [ "$PARM_RB" -gt 0 ]; then pass "vivid-default: driver reports $PARM_RB read buffer(s)"; else fail "vivid-default: driver read buffers '$PARM_RB'"; fi
	expect_eq "vivid-default: device-name is the card name" "$P_device_name" "$card"
fi
if probe vivid-rb4 /dev/video0 "$WEBCAM" readbuffers=4; then
	expect_eq "vivid-rb4: readbuffers before configuration is the request" "$B_readbuffers" 4
	check_readback vivid-rb4
fi
if probe vivid-hq /dev/video0 "$WEBCAM" capturemode=high-quality; then
	expect_eq "vivid-hq: capturemode before configuration is the request" "$B_capturemode" 1
	check_readback vivid-hq
fi
if probe vivid-ext /dev/video0 "$WEBCAM" extendedmode=7 readbuffers=2 capturemode=high-quality; then
	expect_eq "vivid-ext: extendedmode before configuration is the request" "$B_extendedmode" 7
	check_readback vivid-ext
fi

section "vivid S-Video (input 2, S_PARM answers with the current values)"
v4l2-ctl -d /dev/video0 -i 2 -s pal >/dev/null
if probe vivid-svideo /dev/video0 'video/x-raw,format=YUY2' readbuffers=3 capturemode=high-quality; then
	check_readback vivid-svideo
fi
v4l2-ctl -d /dev/video0 -i 0 >/dev/null

section "v4l2loopback fed by FFmpeg (max_buffers=3)"
ffmpeg -nostdin -loglevel error -re -f lavfi -i testsrc=size=320x240:rate=30 \
	-pix_fmt yuyv422 -f v4l2 /dev/video10 >"$KT_LOGS/ffmpeg-writer.log" 2>&1 &
writer=$!
ready=0
for _ in $(seq 50); do
	drv_fmt /dev/video10
	[ "$DRV_W" = 320 ] && {
		ready=1
		break
	}
	sleep 0.2
done
if [ "$ready" -eq 1 ]; then
	lcard=$(v4l2-ctl -d /dev/video10 --info | sed -n 's/.*Card type *: *//p')
	if probe loop-default /dev/video10 'video/x-raw,format=YUY2'; then
		check_readback loop-default
		expect_eq "loop-default: device-name is the card label" "$P_device_name" "$lcard"
	fi
	if probe loop-rb8 /dev/video10 'video/x-raw,format=YUY2' readbuffers=8; then
		check_readback loop-rb8
	fi
else
	fail "v4l2loopback: FFmpeg writer did not set up /dev/video10 within 10 s"
	show_log "$KT_LOGS/ffmpeg-writer.log"
fi
kill "$writer" 2>/dev/null || true
wait "$writer" 2>/dev/null || true

kt_finish
