# shellcheck shell=bash disable=SC2034 # variables are used by the scenarios
# Helpers for the kernel-tier scenarios (sourced inside the guest by
# tests/kernel/scenarios/*.sh). Every check prints PASS/FAIL with what it compared;
# kt_finish exits non-zero if any check failed or none ran.
set -euo pipefail

KT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
KT_PROBE=$KT_DIR/fgrab-probe.py
KT_PYTHON=/usr/bin/python3 # Debian's python, the one with gi
KT_LOGS=${FGRAB_OUT:-/tmp/kt-out}/logs
KT_WORK=/tmp/kt-work
mkdir -p "$KT_LOGS" "$KT_WORK"
KT_FAILS=0
KT_CHECKS=0
KT_FAILED=()
KT_RC=0
KT_MS=0
KT_LOG=

section() { printf '\n=== %s\n' "$*"; }
info() { printf '    %s\n' "$*"; }
pass() {
	KT_CHECKS=$((KT_CHECKS + 1))
	printf '  PASS: %s\n' "$*"
}
fail() {
	KT_CHECKS=$((KT_CHECKS + 1))
	KT_FAILS=$((KT_FAILS + 1))
	KT_FAILED+=("$*")
	printf '  FAIL: %s\n' "$*"
}
fatal() {
	printf '\nFATAL: %s\n' "$*"
	exit 1
}

# show_log FILE [LINES]: the tail of a log, indented (after a failure).
show_log() {
	[ -f "$1" ] || return 0
	printf '    --- %s (last %s lines)\n' "$1" "${2:-25}"
	tr '\r' '\n' <"$1" | grep -v '99:99:99' | tail -n "${2:-25}" | sed 's/^/    | /'
}

expect_eq() { # DESC GOT WANT
	if [ "$2" = "$3" ]; then pass "$1: $2"; else fail "$1: got '$2', want '$3'"; fi
}

# expect_le DESC A B: integer A <= B
expect_le() {
	if [ "$2" -le "$3" ]; then pass "$1 ($2 <= $3)"; else fail "$1 ($2 > $3)"; fi
}
expect_ge() {
	if [ "$2" -ge "$3" ]; then pass "$1 ($2 >= $3)"; else fail "$1 ($2 < $3)"; fi
}

# expect_log DESC REGEX [FILE]: FILE (default: last gst log) matches the ERE.
expect_log() {
	local f=${3:-$KT_LOG}
	if grep -Eq -- "$2" "$f"; then
		pass "$1"
	else
		fail "$1 (no /$2/ in $(basename "$f"))"
		show_log "$f"
	fi
}
expect_no_log() {
	local f=${3:-$KT_LOG}
	if grep -Eq -- "$2" "$f"; then
		fail "$1 (found /$2/ in $(basename "$f"))"
		show_log "$f"
	else
		pass "$1"
	fi
}

kt_finish() {
	echo
	if [ "$KT_CHECKS" -eq 0 ]; then
		echo "RESULT: FAIL (no checks ran)"
		exit 1
	fi
	if [ "$KT_FAILS" -gt 0 ]; then
		echo "RESULT: FAIL ($KT_FAILS of $KT_CHECKS checks failed)"
		local f
		for f in "${KT_FAILED[@]}"; do echo "  - $f"; done
		echo "logs: $KT_LOGS"
		exit 1
	fi
	echo "RESULT: PASS ($KT_CHECKS checks)"
	exit 0
}

# Under TCG every exec of a dynamically linked tool costs 50-150 ms, so the helpers
# below parse with bash builtins and spawn as few processes as they can.
now_ms() {
	local t=${EPOCHREALTIME/[.,]/}
	echo $((t / 1000))
}

# require_element NAME: ends the scenario unless gst-inspect-1.0 finds NAME;
# says which plugin file it comes from.
require_element() {
	local name=$1 log="$KT_LOGS/inspect-$1.log"
	if ! gst-inspect-1.0 "$name" >"$log" 2>&1; then
		show_log "$log" 10
		fatal "element $name not found (GST_PLUGIN_PATH=${GST_PLUGIN_PATH:-unset}); build the plugin first"
	fi
	local line
	while IFS= read -r line; do
		[[ $line =~ ^\ *Filename\ +(.*)$ ]] && info "$name from ${BASH_REMATCH[1]}"
	done <"$log"
	return 0
}

# log_match REGEX [LOG] [DEFAULT]: the first group of REGEX (bash ERE) in the
# first line of LOG (default: the last run's) that matches it, else DEFAULT.
log_match() {
	local line
	while IFS= read -r line; do
		[[ $line =~ $1 ]] && {
			echo "${BASH_REMATCH[1]}"
			return 0
		}
	done <"${2:-$KT_LOG}"
	echo "${3:-}"
}

# frames_written [LOG]: the count fgrabsink logs when it stops (-1 if absent;
# needs GST_DEBUG=fgrabsink:4); LOG defaults to the last gst run's.
frames_written() { log_match 'fgrabsink.* ([0-9]+) frames written' "${1:-$KT_LOG}" -1; }

# stop_reader PID GRACE [SIGNAL]: lets a reader end by itself within GRACE
# seconds, else sends SIGNAL (default INT: FFmpeg and gst-launch close their
# files cleanly) and waits 10 s more; sets KT_RC and READER_INTERRUPTED (1 if it
# needed the signal).
stop_reader() {
	local i
	READER_INTERRUPTED=0
	for ((i = 0; i < $2 * 10; i++)); do
		kill -0 "$1" 2>/dev/null || break
		sleep 0.1
	done
	if kill -0 "$1" 2>/dev/null; then
		READER_INTERRUPTED=1
		kill -"${3:-INT}" "$1" 2>/dev/null || true
	fi
	wait_exit "$1" 10
}

# gst NAME TIMEOUT PIPELINE...: runs gst-launch-1.0 -v; sets KT_RC (exit status,
# 124 = killed by the timeout), KT_MS (wall time) and KT_LOG.
gst() {
	local name=$1 tmo=$2 t0
	shift 2
	KT_LOG=$KT_LOGS/$name.log
	t0=$(now_ms)
	set +e
	timeout -k 5 "$tmo" gst-launch-1.0 -v "$@" >"$KT_LOG" 2>&1 </dev/null
	KT_RC=$?
	set -e
	KT_MS=$(($(now_ms) - t0))
	info "gst-launch-1.0 $* -> exit $KT_RC in ${KT_MS} ms"
}

# gst_bg NAME PIPELINE...: gst-launch-1.0 -v in the background (KT_PID, KT_LOG).
gst_bg() {
	local name=$1
	shift
	KT_LOG=$KT_LOGS/$name.log
	gst-launch-1.0 -v "$@" >"$KT_LOG" 2>&1 </dev/null &
	KT_PID=$!
	info "started gst-launch-1.0 $* (pid $KT_PID)"
}

# src_caps [LOG]: the caps fgrabsrc set on its src pad (first notification).
src_caps() {
	local line re='^/GstPipeline:pipeline[0-9]*/GstFgrabSrc:[^.]*\.GstPad:src: caps = (.*)$'
	while IFS= read -r line; do
		if [[ $line =~ $re ]]; then
			echo "${BASH_REMATCH[1]}"
			return 0
		fi
	done <"${1:-$KT_LOG}"
	echo ""
}

# caps_field CAPS FIELD: the value of FIELD in a fixed caps string ("" if absent).
caps_field() {
	local re="(^|, )$2=\\([a-z]*\\)([^,]*)"
	if [[ $1 =~ $re ]]; then echo "${BASH_REMATCH[2]}"; else echo ""; fi
}

# log_time [LOG]: gst-launch's "Execution ended after H:MM:SS.NNNNNNNNN" in ms.
log_time() {
	local line re='Execution ended after ([0-9]+):([0-9]+):([0-9]+)\.([0-9]{3})'
	while IFS= read -r line; do
		if [[ $line =~ $re ]]; then
			echo $(((10#${BASH_REMATCH[1]} * 3600 + 10#${BASH_REMATCH[2]} * 60 + 10#${BASH_REMATCH[3]}) * 1000 + 10#${BASH_REMATCH[4]}))
			return 0
		fi
	done <"${1:-$KT_LOG}"
	echo -1
}

frac_reduce() { # N/D -> reduced N/D
	local n=${1%/*} d=${1#*/} a b t
	a=$n b=$d
	while [ "$b" -ne 0 ]; do
		t=$((a % b))
		a=$b
		b=$t
	done
	[ "$a" -ne 0 ] || a=1
	echo "$((n / a))/$((d / a))"
}

# drv_parm DEV: G_PARM from a new handle; sets DRV_FPS (reduced, e.g. 30000/1001,
# "" if none), DRV_READBUFFERS, DRV_CAPTUREMODE (1 = high quality, else 0).
drv_parm() {
	local out line
	DRV_FPS="" DRV_READBUFFERS="" DRV_CAPTUREMODE=0
	out=$(v4l2-ctl -d "$1" --get-parm 2>&1) || true
	while IFS= read -r line; do
		if [[ $line =~ Frames\ per\ second:.*\(([0-9]+/[0-9]+)\) ]]; then
			DRV_FPS=$(frac_reduce "${BASH_REMATCH[1]}")
		elif [[ $line =~ Read\ buffers\ *:\ *([0-9]+) ]]; then
			DRV_READBUFFERS=${BASH_REMATCH[1]}
		elif [[ $line =~ [Hh]igh\ [Qq]uality ]]; then
			DRV_CAPTUREMODE=1
		fi
	done <<<"$out"
}
drv_fps() {
	drv_parm "$1"
	echo "$DRV_FPS"
}

# drv_fmt DEV: the current capture format; sets DRV_W DRV_H DRV_FOURCC (spaces as
# '_', e.g. Y16_-BE) DRV_FIELD DRV_BPL DRV_SIZE.
drv_fmt() {
	local out line
	DRV_W="" DRV_H="" DRV_FOURCC="" DRV_FIELD="" DRV_BPL="" DRV_SIZE=""
	out=$(v4l2-ctl -d "$1" --get-fmt-video 2>&1) || true
	while IFS= read -r line; do
		if [[ $line =~ Width/Height\ *:\ *([0-9]+)/([0-9]+) ]]; then
			DRV_W=${BASH_REMATCH[1]} DRV_H=${BASH_REMATCH[2]}
		elif [[ $line =~ Pixel\ Format\ *:\ *\'([^\']*)\' ]]; then
			DRV_FOURCC=${BASH_REMATCH[1]// /_}
		elif [[ $line =~ Field\ *:\ *(.*)$ ]]; then
			DRV_FIELD=${BASH_REMATCH[1]// /_}
		elif [[ $line =~ Bytes\ per\ Line\ *:\ *([0-9]+) ]]; then
			DRV_BPL=${BASH_REMATCH[1]}
		elif [[ $line =~ Size\ Image\ *:\ *([0-9]+) ]]; then
			DRV_SIZE=${BASH_REMATCH[1]}
		fi
	done <<<"$out"
}

# frames DIR: summary of the captured buffers (one file each) in DIR; sets
# FR_N (count), FR_SIZES (distinct sizes), FR_SUMS (distinct md5s), FR_LIST (md5 of
# each file in name order, space separated).
frames() {
	local out line sizes=() sums=() list=() n=0
	local -A seen_s=() seen_m=()
	FR_N=0 FR_SIZES="" FR_SUMS="" FR_LIST=""
	shopt -s nullglob
	local files=("$1"/*)
	shopt -u nullglob
	[ "${#files[@]}" -gt 0 ] || return 0
	out=$(md5sum "${files[@]}")
	while read -r line _; do
		n=$((n + 1))
		list+=("$line")
		[ -n "${seen_m[$line]:-}" ] || {
			seen_m[$line]=1
			sums+=("$line")
		}
	done <<<"$out"
	out=$(stat -c %s "${files[@]}")
	while read -r line; do
		[ -n "${seen_s[$line]:-}" ] || {
			seen_s[$line]=1
			sizes+=("$line")
		}
	done <<<"$out"
	FR_N=$n
	FR_SIZES="${sizes[*]}"
	FR_SUMS="${sums[*]}"
	FR_LIST="${list[*]}"
}

fresh_dir() {
	rm -rf "${KT_WORK:?}/$1"
	mkdir -p "$KT_WORK/$1"
	echo "$KT_WORK/$1"
}

# vivid_still: the test pattern without movement and without the OSD text, so
# that every frame of a format is byte-identical (and equal to a mmap reference).
vivid_still() {
	v4l2-ctl -d /dev/video0 -c osd_text_mode=2,horizontal_movement=3,vertical_movement=3 ||
		fatal "cannot set vivid's still-pattern controls"
}

# wait_for_log FILE REGEX SECONDS: wait until FILE matches (0) or time runs out (1)
wait_for_log() {
	local i n=$(($3 * 10)) line
	for ((i = 0; i < n; i++)); do
		if [ -f "$1" ]; then
			while IFS= read -r line; do
				[[ $line =~ $2 ]] && return 0
			done <"$1"
		fi
		sleep 0.1
	done
	return 1
}

# wait_exit PID SECONDS: wait for PID to end; sets KT_RC to its status, or 255 after
# killing it when it did not end in time (returns 1 then).
wait_exit() {
	local pid=$1 i n=$(($2 * 10))
	for ((i = 0; i < n; i++)); do
		if ! kill -0 "$pid" 2>/dev/null; then
			set +e
			wait "$pid"
			KT_RC=$?
			set -e
			return 0
		fi
		sleep 0.1
	done
	kill -KILL "$pid" 2>/dev/null || true
	set +e
	wait "$pid"
	set -e
	KT_RC=255
	return 1
}

# threads_in_poll PID: how many threads of PID sleep in poll()/ppoll()
# (/proc/PID/task/*/syscall: 7 = poll, 271 = ppoll on x86-64).
threads_in_poll() {
	local t n=0 s
	for t in /proc/"$1"/task/*; do
		s=""
		read -r s _ <"$t/syscall" 2>/dev/null || true
		case $s in 7 | 271) n=$((n + 1)) ;; esac
	done
	echo "$n"
}

# GStreamer format -> the V4L2 fourccs (as drv_fmt prints them) that carry it.
# Independent of the element's own table; used to check which fourcc it chose.
declare -A KT_GST2V4L2=(
	[YUY2]="YUYV" [UYVY]="UYVY" [YVYU]="YVYU" [VYUY]="VYUY"
	[Y42B]="422P" [I420]="YU12" [YV12]="YV12" [Y41B]="411P" [YUV9]="YUV9" [YVU9]="YVU9"
	[NV12]="NV12" [NV21]="NV21" [NV16]="NV16" [NV61]="NV61" [NV24]="NV24"
	[AYUV]="AYUV YUV4" [VUYA]="VUYA"
	[GRAY8]="GREY" [GRAY16_LE]="Y16_" [GRAY16_BE]="Y16_-BE"
	[RGB16]="RGBP" [RGB15]="RGBO XR15 AR15" [RGB]="RGB3" [BGR]="BGR3"
	[xRGB]="RGB4 BX24" [BGRx]="BGR4 XR24" [ARGB]="BA24" [BGRA]="AR24"
	[RGBx]="XB24" [xBGR]="RX24" [RGBA]="AB24" [ABGR]="RA24"
)

# ------------------------------------------------------------------ virtual webcam
# Helpers of the webcam-*.sh scenarios: v4l2loopback with exclusive_caps=1,
# fgrabsink writing a still videotestsrc pattern (every frame the same bytes,
# so any frame a reader gets can be checked against one reference md5), FFmpeg
# and GStreamer's v4l2src (mmap) reading. They use the scenario's DEV.

# loopback_version: the loaded v4l2loopback's version (sysfs), e.g. 0.15.0;
# sets LOOP_VERSION and LOOP_VERNUM (major*10000 + minor*100 + patch).
# Releases before 0.13.0 declare no MODULE_VERSION, so they have no
# version file (Debian 12's 0.12.7): that is taken as 0.12.
loopback_version() {
	local v maj min pat
	[ -d /sys/module/v4l2loopback ] || fatal "v4l2loopback is not loaded"
	if [ -r /sys/module/v4l2loopback/version ]; then
		read -r v </sys/module/v4l2loopback/version
	else
		v=0.12
	fi
	IFS=. read -r maj min pat <<<"$v"
	LOOP_VERSION=$v
	LOOP_VERNUM=$((10#${maj:-0} * 10000 + 10#${min:-0} * 100 + 10#${pat:-0}))
}

# loopback_reload PARAMS...: unloads v4l2loopback and loads it again with
# PARAMS, so that a section starts with a fresh node (no state left by the
# previous one); ends the scenario if the node does not come back.
loopback_reload() {
	local i
	modprobe -r v4l2loopback || fatal "cannot unload v4l2loopback (a process still has $DEV open?)"
	# shellcheck disable=SC2068 # word-split on purpose
	modprobe v4l2loopback $@ || fatal "modprobe v4l2loopback $* failed"
	for ((i = 0; i < 50; i++)); do
		[ -e "$DEV" ] && return 0
		sleep 0.1
	done
	fatal "$DEV did not appear after modprobe v4l2loopback $*"
}

# node_caps DEV: what the node's device caps (QUERYCAP from a new handle)
# announce now: "capture", "output", "capture+output" or "none".
node_caps() {
	local out line hex="" c=""
	out=$(v4l2-ctl -d "$1" --info 2>&1) || true
	while IFS= read -r line; do
		[[ $line =~ Device\ Caps\ *:\ *0x([0-9a-fA-F]+) ]] && hex=${BASH_REMATCH[1]}
	done <<<"$out"
	[ -n "$hex" ] || {
		echo "unknown"
		return 0
	}
	(((16#$hex & 0x1) != 0)) && c=capture
	(((16#$hex & 0x2) != 0)) && c=${c:+$c+}output
	echo "${c:-none}"
}

# cam_caps FORMAT W H: the caps the webcam scenarios write (30 fps)
cam_caps() { echo "video/x-raw,format=$1,width=$2,height=$3,framerate=30/1"; }

# cam_size FORMAT W H: bytes of one frame (I420 or YUY2, even sizes)
cam_size() {
	case $1 in
	I420) echo $(($2 * $3 * 3 / 2)) ;;
	YUY2) echo $(($2 * $3 * 2)) ;;
	*) fatal "cam_size: no size for $1" ;;
	esac
}

# cam_ref PATTERN FORMAT W H: sets CAM_REF to the md5 of one frame of the
# still videotestsrc PATTERN in that format, rendered without a device.
cam_ref() {
	local out rc
	set +e
	out=$(gst-launch-1.0 -q videotestsrc pattern="$1" num-buffers=1 ! "$(cam_caps "$2" "$3" "$4")" \
		! fdsink fd=1 2>"$KT_LOGS/ref-$1-$2-${3}x$4.log" | md5sum)
	rc=$?
	set -e
	[ "$rc" -eq 0 ] || fatal "cannot render the reference frame ($1 $2 ${3}x$4)"
	CAM_REF=${out%% *}
}

# cam_writer TAG PATTERN FORMAT W H [FRAMES]: fgrabsink writes the still
# PATTERN live at 30 fps (gst-launch -e: SIGINT ends it with EOS), FRAMES of
# them (default: until stopped). Returns once fgrabsink configured the
# node and wrote its first frame (the node then announces capture alone);
# sets WRITER_PID and WRITER_LOG. CAM_WRITER_LINE is the pipeline as run
# (docs/guide.md's "Virtual webcam" recipe quotes it).
cam_writer() {
	local tag=$1 i
	CAM_WRITER_LINE="videotestsrc pattern=$2 is-live=true${6:+ num-buffers=$6} ! $(cam_caps "$3" "$4" "$5") ! fgrabsink device=$DEV"
	# shellcheck disable=SC2086 # the line is word-split on purpose
	GST_DEBUG=fgrabsink:4 gst_bg "$tag-writer" -e $CAM_WRITER_LINE
	WRITER_PID=$KT_PID WRITER_LOG=$KT_LOG
	for ((i = 0; i < 300; i++)); do
		[ "$(node_caps "$DEV")" != capture ] || return 0
		kill -0 "$WRITER_PID" 2>/dev/null || break
		sleep 0.1
	done
	return 1
}

# cam_stop_writer TAG: ends the writer with SIGINT (EOS) and checks it ended
# cleanly (exit 0, EOS, no error); sets WRITER_RC.
cam_stop_writer() {
	kill -INT "$WRITER_PID" 2>/dev/null || true
	wait_exit "$WRITER_PID" 30 || true
	WRITER_RC=$KT_RC
	expect_eq "$1: fgrabsink pipeline exit status" "$WRITER_RC" 0
	expect_no_log "$1: no error from the writer" '^ERROR: ' "$WRITER_LOG"
	info "$1: fgrabsink wrote $(frames_written "$WRITER_LOG") frames"
}

# cam_ffmpeg TAG FRAMES: FFmpeg (mmap, libavdevice's v4l2 demuxer) reads
# FRAMES frames from DEV as they come (-c:v copy: the bytes as dequeued);
# sets CAM_RC (255 if it had to be killed), CAM_N, CAM_SUMS (distinct md5s),
# CAM_SIZES (distinct sizes) and CAM_LOG.
cam_ffmpeg() {
	local tag=$1 n=$2 out line f pid t0
	local -A ff_sums=() ff_sizes=()
	t0=$(now_ms)
	out=$KT_WORK/$tag.framemd5
	CAM_LOG=$KT_LOGS/$tag-ffmpeg.log
	rm -f "$out"
	ffmpeg -nostdin -hide_banner -loglevel info -f v4l2 -i "$DEV" -frames:v "$n" -c:v copy \
		-f framemd5 "$out" >"$CAM_LOG" 2>&1 &
	pid=$!
	stop_reader "$pid" 60 || true
	CAM_RC=$KT_RC
	[ "$READER_INTERRUPTED" -eq 0 ] || CAM_RC=255
	CAM_N=0
	if [ -f "$out" ]; then
		while IFS= read -r line; do
			[[ $line == \#* || -z $line ]] && continue
			IFS=', ' read -r -a f <<<"$line"
			CAM_N=$((CAM_N + 1))
			ff_sizes[${f[4]}]=1
			ff_sums[${f[5]}]=1
		done <"$out"
	fi
	CAM_SUMS="${!ff_sums[*]}" CAM_SIZES="${!ff_sizes[*]}"
	info "$tag: ffmpeg -f v4l2 -i $DEV -frames:v $n -> exit $CAM_RC in $(($(now_ms) - t0)) ms, $CAM_N frames, sizes '$CAM_SIZES'"
}

# cam_v4l2src TAG FRAMES [V4L2SRC-PROPS...]: GStreamer's v4l2src (default
# io-mode: mmap) reads FRAMES buffers, one file each; sets the same CAM_*
# as cam_ffmpeg, and CAM_CAPS (the caps v4l2src negotiated).
cam_v4l2src() {
	local tag=$1 n=$2 dir re='GstV4l2Src:[^.]*\.GstPad:src: caps = (.*)$'
	shift 2
	dir=$(fresh_dir "$tag")
	# video/x-raw: frames in system memory, as a consumer maps them (v4l2src
	# of GStreamer 1.26 offers DMA_DRM caps first, which multifilesink takes)
	gst "$tag-v4l2src" 60 v4l2src device="$DEV" num-buffers="$n" "$@" \
		! video/x-raw ! multifilesink location="$dir/%05d.raw"
	CAM_RC=$KT_RC CAM_LOG=$KT_LOG CAM_CAPS=$(log_match "$re" "$KT_LOG")
	frames "$dir"
	CAM_N=$FR_N CAM_SUMS=$FR_SUMS CAM_SIZES=$FR_SIZES
	rm -rf "$dir"
	info "$tag: v4l2src -> exit $CAM_RC, $CAM_N frames, sizes '$CAM_SIZES', caps $CAM_CAPS"
}

# cam_expect TAG FRAMES MD5 SIZE: the last reader ended by itself (exit 0)
# with FRAMES frames, every one SIZE bytes with the reference MD5.
cam_expect() {
	expect_eq "$1: reader exit status" "$CAM_RC" 0
	expect_eq "$1: frames received" "$CAM_N" "$2"
	if [ "$CAM_N" -gt 0 ]; then
		expect_eq "$1: every frame byte-identical to the frame written (md5)" "$CAM_SUMS" "$3"
		expect_eq "$1: every frame's size" "$CAM_SIZES" "$4"
	fi
	if [ "$CAM_RC" -ne 0 ] || [ "$CAM_N" -ne "$2" ]; then show_log "$CAM_LOG"; fi
}
