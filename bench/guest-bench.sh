#!/bin/bash
# Runs inside the kernel tier's VM (started by bench/run.sh through
# tests/kernel/vm.sh): every benchmark group, the contenders of each cell
# alternated (A B C D A B C D ...) for REPS repetitions.  One line per run is
# appended to $FGRAB_OUT/results.txt:
#   group=G cell=C contender=X rep=N fps=F <key=value pairs of the tool>
# (or error="..." when the run failed).  bench/report.py makes the tables.
#
#   guest-bench.sh [OPTION...] SECONDS REPS SOAK_SECONDS [GROUP...]
# Groups: capture startup loopback latency multi slow output output-fast
# vivid-out soak (default: all)
# Options (bench/run.sh passes its own on):
#   --sizes "WxH ..."        the capture sizes (default 320x180 640x360
#                            1280x720 1920x1080)
#   --contenders "NAME ..."  run only these contenders of a cell
#   --profile "NAME ..."     the output cells run each of these once more
#                            under perf record and report where its CPU time
#                            went (bench/perf-frames.sh)
#   --before PLUGIN_DIR      adds that build's fgrabsrc to the capture cells
#                            as fgrabsrc-before
# four vivid instances for the multi group, each a capture and an output
# node: /dev/video0 and /dev/video1 are the first one's
#@vivid: n_devs=4 node_types=0x101,0x101,0x101,0x101
#@v4l2loopback: devices=1 video_nr=10 card_label=loop
# The group_* functions are called by name (main, below).
# shellcheck disable=SC2317
set -uo pipefail
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"

SIZES="320x180 640x360 1280x720 1920x1080" CONTENDERS="" PROFILE="" BEFORE=""
while [ $# -gt 0 ]; do
	case $1 in
	--sizes) SIZES=$2; shift 2 ;;
	--contenders) CONTENDERS=$2; shift 2 ;;
	--profile) PROFILE=$2; shift 2 ;;
	--before) BEFORE=$2; shift 2 ;;
	*) break ;;
	esac
done
SECS=${1:-10}
REPS=${2:-3}
SOAK=${3:-60}
shift 3 2>/dev/null || shift $#
GROUPS_RUN=("$@")
[ ${#GROUPS_RUN[@]} -gt 0 ] || GROUPS_RUN=(capture startup loopback latency multi slow output output-fast vivid-out soak)

BIN=$FGRAB_BUILD_DIR/bench
BARE=$BIN/fgrab-bare
METER=$BIN/fgrab-meter
PRELOAD=$BIN/fgrab-meter-preload.so
RES=$FGRAB_OUT/results.txt
BENCH_TAG=bench
LOGS=$FGRAB_OUT/logs
mkdir -p "$LOGS"
CAP=/dev/video0
VOUT=/dev/video1
LOOP=/dev/video10
export GST_DEBUG_NO_COLOR=1
STALL_EVERY=15
STALL_PERIODS=3

# wanted CONTENDER: whether --contenders (if given) lists it
wanted() { [ -z "$CONTENDERS" ] || [[ " $CONTENDERS " == *" $1 "* ]]; }

# max_fps W H: the highest rate vivid's webcam input offers at that size
# (decimal, e.g. 12.5)
max_fps() {
	v4l2-ctl -d "$CAP" --list-frameintervals="width=$1,height=$2,pixelformat=YUYV" 2>/dev/null |
		sed -n 's/.*(\([0-9.]*\) fps).*/\1/p' | sort -g | tail -n1 | sed -e 's/\.0*$//' -e 's/\(\.[0-9]*[1-9]\)0*$/\1/'
}

# frac RATE: a decimal rate as a caps fraction (12.5 -> 25/2)
frac() {
	awk -v r="$1" 'BEGIN { n = int(r * 1000 + 0.5); d = 1000; a = n; b = d
		while (b) { t = a % b; a = b; b = t }; printf "%d/%d", n / a, d / a }'
}

# gcaps W H [RATE]: raw YUY2 caps
gcaps() { echo "video/x-raw,format=YUY2,width=$1,height=$2${3:+,framerate=$(frac "$3")}"; }

# ----------------------------------------------------------------- capture
# capture_cell GROUP CELL W H FPS [STALL-OPTS...]: the four capture contenders
capture_cell() {
	local group=$1 cell=$2 w=$3 h=$4 fps=$5 rep c log
	shift 5
	local bstall=() mstall=()
	if [ $# -gt 0 ]; then
		bstall=(--stall-every "$STALL_EVERY" --stall-periods "$STALL_PERIODS")
		mstall=(--stall-every "$STALL_EVERY" --stall-periods "$STALL_PERIODS")
	fi
	local tmo=$((SECS + 60))
	local cs=(bare-longpoll bare fgrabsrc v4l2src-rw v4l2src-mmap)
	# with a stalling consumer: also fgrabsrc with a queue before it
	[ $# -eq 0 ] || cs+=(fgrabsrc-queue)
	# before/after: another build's elements next to this one's
	[ -z "$BEFORE" ] || cs+=(fgrabsrc-before)
	for rep in $(seq "$REPS"); do
		for c in "${cs[@]}"; do
			wanted "$c" || continue
			log=$LOGS/$cell-$c-$rep.log
			case $c in
			# the floor: vivid's poll works, so a wait never needs to end early
			bare-longpoll) run "$log" "$tmo" "$BARE" read "$CAP" --fmt "${w}x$h:YUYV" --fps "$fps" \
				--poll-timeout-ms 1000 --seconds "$SECS" "${bstall[@]}" ;;
			# with the half-period poll timeout fgrabsrc uses until poll has woken it
			bare) run "$log" "$tmo" "$BARE" read "$CAP" --fmt "${w}x$h:YUYV" --fps "$fps" \
				--seconds "$SECS" "${bstall[@]}" ;;
			fgrabsrc) run "$log" "$tmo" "$METER" --seconds "$SECS" --fps "$fps" "${mstall[@]}" \
				fgrabsrc device="$CAP" ! "$(gcaps "$w" "$h" "$fps")" ! fakesink name=meter sync=false ;;
			fgrabsrc-before) run "$log" "$tmo" env GST_PLUGIN_PATH="$BEFORE" \
				GST_REGISTRY=/tmp/registry-before.bin "$METER" --seconds "$SECS" --fps "$fps" "${mstall[@]}" \
				fgrabsrc device="$CAP" ! "$(gcaps "$w" "$h" "$fps")" ! fakesink name=meter sync=false ;;
			fgrabsrc-queue) run "$log" "$tmo" "$METER" --seconds "$SECS" --fps "$fps" "${mstall[@]}" \
				fgrabsrc device="$CAP" ! "$(gcaps "$w" "$h" "$fps")" ! queue ! fakesink name=meter sync=false ;;
			v4l2src-rw) run "$log" "$tmo" "$METER" --seconds "$SECS" --fps "$fps" "${mstall[@]}" \
				v4l2src device="$CAP" io-mode=rw ! "$(gcaps "$w" "$h" "$fps")" ! fakesink name=meter sync=false ;;
			v4l2src-mmap) run "$log" "$tmo" "$METER" --seconds "$SECS" --fps "$fps" "${mstall[@]}" \
				v4l2src device="$CAP" io-mode=mmap ! "$(gcaps "$w" "$h" "$fps")" ! fakesink name=meter sync=false ;;
			esac
			record "$group" "$cell" "$c" "$rep" "$fps" "$log"
		done
	done
}

group_capture() {
	local s w h fps
	for s in $SIZES; do
		w=${s%x*} h=${s#*x}
		fps=$(max_fps "$w" "$h")
		say "vivid $s: highest rate $fps fps"
		capture_cell capture "vivid-$s" "$w" "$h" "$fps"
	done
}

# ----------------------------------------------------------------- startup
# Time to the first buffer, a short run each (one second of frames), the
# contenders alternated STARTUP_REPS times at every capture size.
STARTUP_REPS=$((3 * REPS))
group_startup() {
	local s w h fps rep c log cell caps tmo=60
	for s in $SIZES; do
		w=${s%x*} h=${s#*x}
		fps=$(max_fps "$w" "$h")
		caps=$(gcaps "$w" "$h" "$fps")
		cell=vivid-$s
		for rep in $(seq "$STARTUP_REPS"); do
			for c in bare-longpoll fgrabsrc v4l2src-rw; do
				wanted "$c" || continue
				log=$LOGS/startup-$cell-$c-$rep.log
				case $c in
				bare-longpoll) run "$log" "$tmo" "$BARE" read "$CAP" --fmt "${w}x$h:YUYV" --fps "$fps" \
					--poll-timeout-ms 1000 --seconds 1 --warmup 2 ;;
				fgrabsrc) run "$log" "$tmo" "$METER" --seconds 1 --warmup 2 --fps "$fps" \
					fgrabsrc device="$CAP" ! "$caps" ! fakesink name=meter sync=false ;;
				v4l2src-rw) run "$log" "$tmo" "$METER" --seconds 1 --warmup 2 --fps "$fps" \
					v4l2src device="$CAP" io-mode=rw ! "$caps" ! fakesink name=meter sync=false ;;
				esac
				record startup "$cell" "$c" "$rep" "$fps" "$log"
			done
		done
	done
}

# ------------------------------------------------------------------ multi
# vivid_captures: the capture nodes of the vivid instances, in order
vivid_captures() {
	local d
	for d in /dev/video*; do
		v4l2-ctl -d "$d" -D 2>/dev/null | grep -q 'Driver name.*vivid' || continue
		v4l2-ctl -d "$d" -D 2>/dev/null | grep -A3 'Device Caps' | grep -q 'Video Capture' && echo "$d"
	done | sort -V
}

# combine LOG...: the result lines of processes that ran side by
# side, as one: frames, CPU time, start-up CPU and peak RSS summed, the
# CPU a frame over the frames of all, span and first buffer the longest,
# meter_lost the frames all lost against the rate (fps=), qos_dropped
# what the elements said they lost
combine() {
	local f line
	for f in "$@"; do
		line=$(grep -E '^(frames=|error=)' "$f" | tail -n1)
		echo "${line:-error=\"no result in $(basename "$f")\"}"
	done | awk -v fps="$MULTI_FPS" -v n=$# '
		/^error=/ { err = $0 }
		{ for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
		  steady += v["frames"] - v["warmup"] - 1; frames += v["frames"]
		  cpu += v["cpu_ms"]; sc += v["startup_cpu_ms"]; rss += v["maxrss_kb"]
		  if (v["span_s"] + 0 > span) span = v["span_s"] + 0
		  if (v["ttfb_ms"] + 0 > ttfb) ttfb = v["ttfb_ms"] + 0
		  want = int(v["span_s"] * fps + 0.5) + 1
		  if (want > v["frames"] + 0) lost += want - v["frames"]
		  bytes = v["frame_bytes"]; qd += v["qos_dropped"] }
		END { if (err != "") { print err; exit }
		  f = "frames=%d warmup=%d span_s=%.6f ttfb_ms=%.3f startup_cpu_ms=%.3f cpu_ms=%.3f"
		  f = f " cpu_per_frame_us=%.3f maxrss_kb=%d frame_bytes=%d meters=%d meter_lost=%d"
		  f = f " qos_dropped=%d\n"
		  per = steady > 0 ? cpu * 1000 / steady : 0
		  printf f, frames, v["warmup"], span, ttfb, sc, cpu, per, rss, bytes, n, lost, qd }'
}

# multi_fps DEV: 30 where vivid offers it at 640x360, else its highest rate
multi_fps() {
	if v4l2-ctl -d "$1" --list-frameintervals=width=640,height=360,pixelformat=YUYV |
		grep -q '(30.000 fps)'; then
		echo 30
	else
		max_fps 640 360
	fi
}

# multi_procs C LOG DEV...: one process a device side by side (the bare
# loop or fgrab-meter with one fgrabsrc), their lines combined into LOG
multi_procs() {
	local c=$1 log=$2 i=0 d pids=() logs=() tmo=$((SECS + 60))
	shift 2
	for d in "$@"; do
		logs+=("$log.$i")
		if [ "$c" = bare-procs ]; then
			run "$log.$i" "$tmo" "$BARE" read "$d" --fmt 640x360:YUYV --fps "$MULTI_FPS" \
				--poll-timeout-ms 1000 --seconds "$SECS" &
		else
			run "$log.$i" "$tmo" "$METER" --seconds "$SECS" --fps "$MULTI_FPS" \
				fgrabsrc device="$d" ! "$MULTI_CAPS" ! fakesink name=meter sync=false &
		fi
		pids+=($!)
		i=$((i + 1))
	done
	wait "${pids[@]}"
	combine "${logs[@]}" >"$log"
}

# multi_one LOG DEV...: one fgrab-meter, an fgrabsrc branch a device
# (the meters: meter, meter1, meter2, ...)
multi_one() {
	local log=$1 i=0 d pl=()
	shift
	for d in "$@"; do
		pl+=(fgrabsrc device="$d" ! "$MULTI_CAPS" ! fakesink "name=meter${i#0}" sync=false)
		i=$((i + 1))
	done
	run "$log" $((SECS + 60)) "$METER" --seconds "$SECS" --fps "$MULTI_FPS" "${pl[@]}"
}

# 1 to 4 vivid devices at once at 640x360: N bare loops, N fgrab-meter
# processes with one fgrabsrc each, and one fgrab-meter with N fgrabsrc
# branches; CPU a frame over all frames, frames lost by the wall clock.
group_multi() {
	local devs n rep c log cell
	mapfile -t devs < <(vivid_captures)
	say "multi: vivid capture nodes ${devs[*]}"
	[ "${#devs[@]}" -ge 4 ] || { say "multi: fewer than 4 vivid capture nodes"; return 1; }
	MULTI_FPS=$(multi_fps "${devs[0]}")
	MULTI_CAPS=$(gcaps 640 360 "$MULTI_FPS")
	for n in 1 2 3 4; do
		cell=vivid-640x360-x$n
		for rep in $(seq "$REPS"); do
			for c in bare-procs fgrabsrc-procs fgrabsrc-one; do
				wanted "$c" || continue
				log=$LOGS/$cell-$c-$rep.log
				case $c in
				*-procs) multi_procs "$c" "$log" "${devs[@]:0:n}" ;;
				fgrabsrc-one) multi_one "$log" "${devs[@]:0:n}" ;;
				esac
				record multi "$cell" "$c" "$rep" "$MULTI_FPS" "$log"
			done
		done
	done
}

group_slow() {
	local fps
	fps=$(max_fps 640 360)
	say "slow consumer: vivid 640x360 at $fps fps, a stall of $STALL_PERIODS periods every $STALL_EVERY frames"
	capture_cell slow "vivid-640x360-stall" 640 360 "$fps" stall
}

# start_loop_writer TAG WxH [FGRAB-BARE-OPTS...]: bare writer into the loopback as
# fast as it goes (unless OPTS pace it), each frame stamped with its number;
# waits until it runs
start_loop_writer() {
	local tag=$1 size=$2
	shift 2
	"$BARE" write "$LOOP" --fmt "$size:YUYV" --seq --seconds $((SECS + 40)) "$@" \
		>"$LOGS/$tag-writer.log" 2>&1 </dev/null &
	WRITER=$!
	for _ in $(seq 50); do
		grep -q 'frames of' "$LOGS/$tag-writer.log" 2>/dev/null && break
		sleep 0.1
	done
	sleep 0.5
}
stop_loop_writer() {
	kill "$WRITER" 2>/dev/null
	wait "$WRITER" 2>/dev/null
}

# ---------------------------------------------------------------- latency
# A writer paced at 30 fps stamps the time of each write() into the frame
# (fgrab-bare write --stamp); each reader reports the delay from it to the
# frame's arrival: the bare loop's read() (reading first, as on 0.12
# poll never wakes a reader), fgrabsrc and v4l2src at their src pad.
group_latency() {
	local rep c log cell=loopback-640x360-30fps caps tmo=$((SECS + 60))
	caps=$(gcaps 640 360)
	for rep in $(seq "$REPS"); do
		for c in bare fgrabsrc v4l2src-rw v4l2src-mmap; do
			wanted "$c" || continue
			log=$LOGS/$cell-$c-$rep.log
			start_loop_writer "$cell-$c-$rep" 640x360 --fps 30 --set-parm --stamp
			case $c in
			# the bounded poll of half a 30 fps frame, as fgrabsrc's
			bare) run "$log" "$tmo" "$BARE" read "$LOOP" --io-first --seq --latency \
				--poll-timeout-ms 16 --seconds "$SECS" ;;
			fgrabsrc) run "$log" "$tmo" "$METER" --seq --latency --fps 30 --seconds "$SECS" \
				fgrabsrc device="$LOOP" ! "$caps" ! fakesink name=meter sync=false ;;
			v4l2src-rw) run "$log" "$tmo" "$METER" --seq --latency --fps 30 --seconds "$SECS" \
				v4l2src device="$LOOP" io-mode=rw ! "$caps" ! fakesink name=meter sync=false ;;
			v4l2src-mmap) run "$log" "$tmo" "$METER" --seq --latency --fps 30 --seconds "$SECS" \
				v4l2src device="$LOOP" io-mode=mmap ! "$caps" ! fakesink name=meter sync=false ;;
			esac
			stop_loop_writer
			record latency "$cell" "$c" "$rep" 30 "$log"
		done
	done
}

group_loopback() {
	local rep c log cell=loopback-1920x1080 caps tmo=$((SECS + 60))
	caps=$(gcaps 1920 1080)
	for rep in $(seq "$REPS"); do
		for c in bare fgrabsrc v4l2src-rw v4l2src-mmap; do
			log=$LOGS/$cell-$c-$rep.log
			start_loop_writer "$cell-$c-$rep" 1920x1080
			case $c in
			# read first: v4l2loopback 0.12 never wakes a reader's poll
			bare) run "$log" "$tmo" "$BARE" read "$LOOP" --io-first --seq --seconds "$SECS" ;;
			fgrabsrc) run "$log" "$tmo" "$METER" --seq --seconds "$SECS" \
				fgrabsrc device="$LOOP" ! "$caps" ! fakesink name=meter sync=false ;;
			v4l2src-rw) run "$log" "$tmo" "$METER" --seq --seconds "$SECS" \
				v4l2src device="$LOOP" io-mode=rw ! "$caps" ! fakesink name=meter sync=false ;;
			v4l2src-mmap) run "$log" "$tmo" "$METER" --seq --seconds "$SECS" \
				v4l2src device="$LOOP" io-mode=mmap ! "$caps" ! fakesink name=meter sync=false ;;
			esac
			stop_loop_writer
			record loopback "$cell" "$c" "$rep" 0 "$log"
			# what the writer managed meanwhile (its own line, for the record)
			echo "group=loopback-writer cell=$cell contender=$c rep=$rep fps=0 $(grep -E '^frames=' "$LOGS/$cell-$c-$rep-writer.log" | tail -n1)" >>"$RES"
		done
	done
}

# ------------------------------------------------------------------ output
FRAMES_FILE=/tmp/bench-frames.yuv
make_frames_file() { # 8 frames of 1920x1080 YUY2
	[ -s "$FRAMES_FILE" ] || head -c $((1920 * 1080 * 2 * 8)) /dev/urandom >"$FRAMES_FILE"
}

# output_contender DEV CELL C REP FPS PACED LOG W H: one output run
output_contender() {
	local dev=$1 cell=$2 c=$3 rep=$4 fps=$5 paced=$6 log=$7 w=$8 h=$9
	local caps tmo=$((SECS + 60)) bfps=() sync=false re=()
	caps=$(gcaps "$w" "$h" 30)
	if [ "$paced" = 1 ]; then
		bfps=(--fps 30) sync=true re=(-re)
	fi
	case $c in
	bare-mem) run "$log" "$tmo" "$BARE" write "$dev" --fmt "${w}x$h:YUYV" "${bfps[@]}" --seconds "$SECS" ;;
	bare-file) run "$log" "$tmo" "$BARE" write "$dev" --fmt "${w}x$h:YUYV" "${bfps[@]}" --from "$FRAMES_FILE" \
		--seconds "$SECS" ;;
	fgrabsink-mem) run "$log" "$tmo" "$METER" --seconds "$SECS" --feed mem --caps "$caps" \
		appsrc name=feed ! fgrabsink name=meter device="$dev" sync="$sync" ;;
	# the same buffers pushed from a thread of the meter's (a hand-off a frame)
	fgrabsink-thread-mem) run "$log" "$tmo" "$METER" --seconds "$SECS" --feed mem-thread --caps "$caps" \
		appsrc name=feed ! fgrabsink name=meter device="$dev" sync="$sync" ;;
	# the same without GstBaseSink's QoS event upstream a buffer
	fgrabsink-noqos-mem) run "$log" "$tmo" "$METER" --seconds "$SECS" --feed mem --caps "$caps" \
		appsrc name=feed ! fgrabsink name=meter device="$dev" sync="$sync" qos=false ;;
	fgrabsink-file) run "$log" "$tmo" "$METER" --seconds "$SECS" --feed file:"$FRAMES_FILE" --caps "$caps" \
		appsrc name=feed ! fgrabsink name=meter device="$dev" sync="$sync" ;;
	v4l2sink-mem) run "$log" "$tmo" "$METER" --seconds "$SECS" --feed mem --caps "$caps" \
		appsrc name=feed ! v4l2sink name=meter device="$dev" io-mode=mmap sync="$sync" ;;
	ffmpeg-file)
		rm -f "$log.meter"
		FGRAB_METER_OUT=$log.meter FGRAB_METER_SECONDS=$SECS LD_PRELOAD=$PRELOAD \
			run "$log" "$tmo" ffmpeg -nostdin -hide_banner -loglevel error "${re[@]}" -stream_loop -1 \
			-f rawvideo -pix_fmt yuyv422 -s "${w}x$h" -r 30 -i "$FRAMES_FILE" -f v4l2 "$dev"
		[ -s "$log.meter" ] && cat "$log.meter" >>"$log"
		;;
	esac
}

OUT_CONTENDERS=(bare-mem fgrabsink-mem fgrabsink-thread-mem fgrabsink-noqos-mem v4l2sink-mem bare-file fgrabsink-file ffmpeg-file)

# far_reader LOG: the bare reader on the far side of the loopback, started
# once the writer has set the format; its result line goes to LOG
far_reader() {
	for _ in $(seq 100); do
		v4l2-ctl -d "$LOOP" --get-fmt-video 2>/dev/null | grep -q '1920/1080' && break
		sleep 0.1
	done
	sleep 1
	timeout -k 2 $((SECS + 30)) "$BARE" read "$LOOP" --io-first --idle-end 3 --warmup 0 --seconds $((SECS - 3)) >"$1" 2>&1 </dev/null
}

# loopback_output GROUP PACED: the contenders write 1920x1080 into the
# loopback; a bare reader on the other side counts what arrives
loopback_output() {
	local group=$1 paced=$2 cell rep c log reader rlog
	cell=loopback-1920x1080-$([ "$paced" = 1 ] && echo 30fps || echo fast)
	make_frames_file
	for rep in $(seq "$REPS"); do
		for c in "${OUT_CONTENDERS[@]}"; do
			wanted "$c" || continue
			log=$LOGS/$cell-$c-$rep.log rlog=$LOGS/$cell-$c-$rep-reader.log
			far_reader "$rlog" &
			reader=$!
			output_contender "$LOOP" "$cell" "$c" "$rep" 30 "$paced" "$log" 1920 1080
			wait "$reader" 2>/dev/null
			record "$group" "$cell" "$c" "$rep" 30 "$log"
			echo "group=$group-reader cell=$cell contender=$c rep=$rep fps=30 $(grep -E '^(frames=|error=)' "$rlog" | tail -n1)" >>"$RES"
		done
	done
	for c in $PROFILE; do
		log=$LOGS/$cell-$c-profile.log
		far_reader "$LOGS/$cell-$c-profile-reader.log" &
		reader=$!
		PROFILING=1 output_contender "$LOOP" "$cell" "$c" profile 30 "$paced" "$log" 1920 1080
		wait "$reader" 2>/dev/null
		profile_report "$cell" "$c" "$log"
	done
}
group_output() { loopback_output output 1; }
group_output_fast() { loopback_output output-fast 0; }

group_vivid_out() {
	local hdmi rep c log cell=vivid-out-1280x720
	make_frames_file
	hdmi=$(v4l2-ctl -d "$VOUT" --list-outputs 2>/dev/null | awk '/Output/ {i=$3} /Name.*HDMI/ {print i; exit}')
	v4l2-ctl -d "$VOUT" -o "${hdmi:-1}" >/dev/null 2>&1
	say "vivid output: HDMI is output ${hdmi:-?}; $(v4l2-ctl -d "$VOUT" --get-output 2>&1 | head -n1)"
	# one repetition: on kernels whose vivid-out refuses write() the outcome
	# is the same every time
	# shellcheck disable=SC2043 # a loop still, like the other groups
	for rep in 1; do
		for c in "${OUT_CONTENDERS[@]}"; do
			log=$LOGS/$cell-$c-$rep.log
			output_contender "$VOUT" "$cell" "$c" "$rep" 30 1 "$log" 1280 720
			record vivid-out "$cell" "$c" "$rep" 30 "$log"
		done
	done
}

# ------------------------------------------------------------------- soak
# The elements (and v4l2src rw) at the device rate for SOAK seconds, once.
group_soak() {
	local fps log caps S=$SOAK tmo=$((SOAK + 60))
	fps=$(max_fps 640 360)
	caps=$(gcaps 640 360 "$fps")
	log=$LOGS/soak-fgrabsrc.log
	run "$log" "$tmo" "$METER" --seconds "$S" --fps "$fps" fgrabsrc device="$CAP" ! "$caps" ! fakesink name=meter sync=false
	record soak "vivid-640x360-${S}s" fgrabsrc 1 "$fps" "$log"
	log=$LOGS/soak-v4l2src-rw.log
	run "$log" "$tmo" "$METER" --seconds "$S" --fps "$fps" v4l2src device="$CAP" io-mode=rw ! "$caps" ! fakesink name=meter sync=false
	record soak "vivid-640x360-${S}s" v4l2src-rw 1 "$fps" "$log"
	log=$LOGS/soak-bare.log
	run "$log" "$tmo" "$BARE" read "$CAP" --fmt 640x360:YUYV --fps "$fps" --seconds "$S"
	record soak "vivid-640x360-${S}s" bare 1 "$fps" "$log"
	local save=$SECS
	SECS=$S
	loopback_soak
	SECS=$save
}
loopback_soak() {
	local c log rlog reader cell=loopback-1920x1080-30fps-${SECS}s
	make_frames_file
	for c in fgrabsink-mem bare-mem; do
		log=$LOGS/soak-$c.log rlog=$LOGS/soak-$c-reader.log
		far_reader "$rlog" &
		reader=$!
		output_contender "$LOOP" "$cell" "$c" 1 30 1 "$log" 1920 1080
		wait "$reader" 2>/dev/null
		record soak "$cell" "$c" 1 30 "$log"
		echo "group=soak-reader cell=$cell contender=$c rep=1 fps=30 $(grep -E '^(frames=|error=)' "$rlog" | tail -n1)" >>"$RES"
	done
}

# ------------------------------------------------------------------- main
for t in "$BARE" "$METER" "$PRELOAD"; do
	[ -e "$t" ] || { echo "bench: $t missing (bench/run.sh builds it)"; exit 1; }
done
gst-inspect-1.0 fgrabsrc >/dev/null 2>&1 || { echo "bench: fgrabsrc not found"; exit 1; }
: >"$RES"
{
	echo "# kernel $(uname -r), $(nproc) vCPUs, seconds=$SECS reps=$REPS soak=$SOAK"
	echo "# gstreamer $(gst-launch-1.0 --version | sed -n 2p)"
	echo "# ffmpeg $(ffmpeg -version | head -n1)"
	echo "# v4l2loopback $(dpkg-query -W -f='${Version}' v4l2loopback-dkms 2>/dev/null)"
} >>"$RES"
t0=$SECONDS
for g in "${GROUPS_RUN[@]}"; do
	say "=== group $g ($((SECONDS - t0)) s so far)"
	"group_${g//-/_}"
done
say "done in $((SECONDS - t0)) s"
exit 0
