#!/bin/bash
# Runs inside the kernel tier's VM (bench/floor.sh starts it): is the bare
# read loop the floor?  Variants of it (buffer alignment, read before poll,
# a long poll wait, reading into buffers like fgrabsrc's pool) next to
# fgrabsrc and v4l2src io-mode=rw on vivid, alternated, then one run of
# each under perf stat and strace -c for page faults, context switches and
# system calls per frame.
#   guest-floor.sh [OPTION...] SECONDS REPS
# Options (bench/floor.sh passes its own on):
#   --contenders "NAME ..."  default: bare bare-align bare-iofirst
#                            bare-align-iofirst bare-longpoll fgrabsrc v4l2src-rw
#   --sizes "WxH ..."        any of 320x180 640x360 1280x720 1920x1080
#                            (default 320x180 1280x720)
#   --before PLUGIN_DIR      contender fgrabsrc-before: that build's fgrabsrc
#   --no-trace               no perf stat/strace runs
#   --profile "NAME ..."     one more run of each under perf record, from 3 s
#                            after its start: where its CPU time goes, as a
#                            share and as microseconds of that run's CPU per
#                            frame
#@vivid: n_devs=1 node_types=0x101
#@v4l2loopback: none
set -uo pipefail
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"
CONTENDER_LIST="bare bare-align bare-iofirst bare-align-iofirst bare-longpoll fgrabsrc v4l2src-rw"
SIZES="320x180 1280x720" BEFORE="" NO_TRACE="" PROFILE=""
while [ $# -gt 0 ]; do
	case $1 in
	--contenders) CONTENDER_LIST=$2; shift 2 ;;
	--sizes) SIZES=$2; shift 2 ;;
	--before) BEFORE=$2; shift 2 ;;
	--no-trace) NO_TRACE=1; shift ;;
	--profile) PROFILE=$2; shift 2 ;;
	*) break ;;
	esac
done
SECS=${1:-10}
REPS=${2:-3}
BIN=$FGRAB_BUILD_DIR/bench
BARE=$BIN/fgrab-bare
METER=$BIN/fgrab-meter
RES=$FGRAB_OUT/results.txt
BENCH_TAG=floor
LOGS=$FGRAB_OUT/logs
mkdir -p "$LOGS"
CAP=/dev/video0
: >"$RES"

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
	# the elements of another build (--before), for before/after
	fgrabsrc-before) echo "env GST_PLUGIN_PATH=$BEFORE GST_REGISTRY=/tmp/registry-before.bin $METER --seconds $s --fps $fps fgrabsrc device=$CAP ! $caps ! fakesink name=meter sync=false" ;;
	fgrabsrc) echo "$METER --seconds $s --fps $fps fgrabsrc device=$CAP ! $caps ! fakesink name=meter sync=false" ;;
	v4l2src-rw) echo "$METER --seconds $s --fps $fps v4l2src device=$CAP io-mode=rw ! $caps ! fakesink name=meter sync=false" ;;
	esac
}

profile() { # CONTENDER W H FPS CAPSRATE: perf record of one run, by DSO and symbol
	local c=$1 w=$2 h=$3 log
	log=$LOGS/${w}x$h-$c-profile.log
	# shellcheck disable=SC2046 # the command line is words
	PROFILING=1 run "$log" $((SECS + 60)) $(contender "$c" "$w" "$h" "$4" "$5" "$SECS")
	profile_report "${w}x$h" "$c" "$log"
}

read -r -a CONTENDERS <<<"$CONTENDER_LIST"
read -r -a CELLS_W <<<"$SIZES"
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
			run "$log" $((SECS + 60)) $(contender "$c" "$w" "$h" "$fps" "$rate" "$SECS")
			record floor "vivid-${w}x$h" "$c" "$rep" "$fps" "$log"
		done
	done
	for c in $PROFILE; do
		profile "$c" "$w" "$h" "$fps" "$rate"
	done
	[ -n "$NO_TRACE" ] && continue
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
