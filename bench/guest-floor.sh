#!/bin/bash
# Runs inside the kernel tier's VM (bench/floor.sh starts it): is the bare
# read loop the floor?  Variants of it (buffer alignment, read before poll,
# a long poll wait, reading into buffers like fgrabsrc's pool) next to
# fgrabsrc and v4l2src io-mode=rw on vivid, alternated, then one run of
# each under perf stat and strace -c for page faults, context switches and
# system calls per frame.
#   guest-floor.sh SECONDS REPS
# Environment: FGRAB_BEFORE_PLUGIN_DIR (contender fgrabsrc-before),
# FGRAB_FLOOR_CONTENDERS, FGRAB_FLOOR_SIZES (any of 320x180 640x360
# 1280x720 1920x1080; default 320x180 1280x720), FGRAB_FLOOR_NO_TRACE=1
# (no perf stat/strace runs), FGRAB_FLOOR_PROFILE="CONTENDER ..." (one
# more run of each under perf record, from 3 s after its start: where its
# CPU time goes, as a share and as microseconds of that run's CPU per
# frame).
#@vivid: n_devs=1 node_types=0x101
#@v4l2loopback: none
set -uo pipefail
SECS=${1:-10}
REPS=${2:-3}
BIN=${FGRAB_BENCH_BIN:-$FGRAB_BUILD_DIR/bench}
BARE=$BIN/fgrab-bare
METER=$BIN/fgrab-meter
PERF_FRAMES=$(dirname "$0")/perf-frames.sh
RES=$FGRAB_OUT/results.txt
LOGS=$FGRAB_OUT/logs
mkdir -p "$LOGS"
CAP=/dev/video0
: >"$RES"

record() { # GROUP CELL CONTENDER REP FPS LOG
	local line
	line=$(grep -E '^(frames=|error=)' "$6" | tail -n1)
	[ -n "$line" ] || line="error=\"no result\""
	echo "group=$1 cell=$2 contender=$3 rep=$4 fps=$5 $line" >>"$RES"
	echo "floor: $2 $3 rep $4: $line"
}

contender() { # NAME W H FPS CAPSRATE SECONDS: the command line
	local c=$1 w=$2 h=$3 fps=$4 rate=$5 s=$6
	local caps="video/x-raw,format=YUY2,width=$w,height=$h,framerate=$rate"
	case $c in
	bare) echo "$BARE read $CAP --fmt ${w}x$h:YUYV --fps $fps --seconds $s" ;;
	bare-align) echo "$BARE read $CAP --fmt ${w}x$h:YUYV --fps $fps --seconds $s --align 4096" ;;
	bare-iofirst) echo "$BARE read $CAP --fmt ${w}x$h:YUYV --fps $fps --seconds $s --io-first" ;;
	bare-longpoll) echo "$BARE read $CAP --fmt ${w}x$h:YUYV --fps $fps --seconds $s --poll-timeout-ms 1000" ;;
	bare-align-iofirst) echo "$BARE read $CAP --fmt ${w}x$h:YUYV --fps $fps --seconds $s --align 4096 --io-first" ;;
	# bare-longpoll reading into what fgrabsrc's pool reads into: two
	# buffers in turn, 160 bytes past a page boundary (its page_off)
	bare-longpoll-pool) echo "$BARE read $CAP --fmt ${w}x$h:YUYV --fps $fps --seconds $s --poll-timeout-ms 1000 --buffers 2 --page-offset 160" ;;
	# the elements of another build (FGRAB_BEFORE_PLUGIN_DIR), for before/after
	fgrabsrc-before) echo "env GST_PLUGIN_PATH=$FGRAB_BEFORE_PLUGIN_DIR GST_REGISTRY=/tmp/registry-before.bin $METER --seconds $s --fps $fps fgrabsrc device=$CAP ! $caps ! fakesink name=meter sync=false" ;;
	fgrabsrc) echo "$METER --seconds $s --fps $fps fgrabsrc device=$CAP ! $caps ! fakesink name=meter sync=false" ;;
	v4l2src-rw) echo "$METER --seconds $s --fps $fps v4l2src device=$CAP io-mode=rw ! $caps ! fakesink name=meter sync=false" ;;
	esac
}

profile() { # CONTENDER W H FPS CAPSRATE: perf record of one run, by DSO and symbol
	local c=$1 w=$2 h=$3 log cpf
	log=$LOGS/${w}x$h-$c-profile.log
	# shellcheck disable=SC2046 # the command line is words
	"$PERF_FRAMES" record "$log.data" $(contender "$c" "$w" "$h" "$4" "$5" "$SECS") >"$log" 2>&1 </dev/null
	cpf=$(grep -oE 'cpu_per_frame_us=[0-9.]+' "$log" | tail -n1 | cut -d= -f2)
	echo "floor-profile: ${w}x$h $c: $(grep -E '^(frames=|error=)' "$log" | tail -n1 | cut -d' ' -f1) cpu_per_frame_us=${cpf:-?}"
	"$PERF_FRAMES" report "$log.data" "${cpf:-0}"
}

read -r -a CONTENDERS <<<"${FGRAB_FLOOR_CONTENDERS:-bare bare-align bare-iofirst bare-align-iofirst bare-longpoll fgrabsrc v4l2src-rw}"
read -r -a CELLS_W <<<"${FGRAB_FLOOR_SIZES:-320x180 1280x720}"
for size in "${CELLS_W[@]}"; do
	case $size in
	320x180) cell="320 180 60 60/1" ;;
	640x360) cell="640 360 40 40/1" ;;
	1280x720) cell="1280 720 12.5 25/2" ;;
	1920x1080) cell="1920 1080 5 5/1" ;;
	esac
	read -r w h fps rate <<<"$cell"
	for rep in $(seq "$REPS"); do
		for c in "${CONTENDERS[@]}"; do
			log=$LOGS/${w}x$h-$c-$rep.log
			# shellcheck disable=SC2046 # the command line is words
			timeout -k 5 $((SECS + 60)) $(contender $c "$w" "$h" "$fps" "$rate" "$SECS") >"$log" 2>&1 </dev/null
			record floor "vivid-${w}x$h" $c "$rep" "$fps" "$log"
		done
	done
	for c in ${FGRAB_FLOOR_PROFILE:-}; do
		profile "$c" "$w" "$h" "$fps" "$rate"
	done
	[ -n "${FGRAB_FLOOR_NO_TRACE:-}" ] && continue
	for c in bare fgrabsrc v4l2src-rw; do
		log=$LOGS/${w}x$h-$c-perf.log
		# shellcheck disable=SC2046
		perf stat -e page-faults,context-switches,cpu-migrations,task-clock -o "$log.perf" \
			$(contender $c "$w" "$h" "$fps" "$rate" "$SECS") >"$log" 2>&1 </dev/null
		echo "floor-perf: ${w}x$h $c: $(grep -E '^frames=' "$log" | cut -d' ' -f1) $(grep -E 'page-faults|context-switches|task-clock' "$log.perf" | awk '{print $2"="$1}' | tr '\n' ' ')"
		log=$LOGS/${w}x$h-$c-strace.log
		# shellcheck disable=SC2046
		strace -f -c -o "$log.strace" $(contender $c "$w" "$h" "$fps" "$rate" 5) >"$log" 2>&1 </dev/null
		echo "floor-strace: ${w}x$h $c: $(grep -E '^frames=' "$log" | cut -d' ' -f1)"
		grep -E '^ *[0-9.]+ +[0-9.]+ +[0-9]+ +[0-9]+' "$log.strace" | sort -k4 -n -r | head -8 | sed 's/^/    /'
	done
done
exit 0
