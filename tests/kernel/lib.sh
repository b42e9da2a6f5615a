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
