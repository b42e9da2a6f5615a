# shellcheck shell=bash
# What the bench scripts share, sourced by them: on the host (run.sh,
# floor.sh, profile.sh) building the tools, in the VM (guest-bench.sh,
# guest-floor.sh) running a contender and recording its result line.
#
# Host side
#   bench_build BUILD [MESON-OPTION...]
#       Sets BUILD up with -Dbench=enabled (and the options given, for a new
#       build) or turns the option on in an existing one, then builds it: the
#       tools land in BUILD/bench (bench/meson.build).
#   bench_abs PATH      PATH made absolute (it need not exist yet)
#
# Guest side (the caller sets RES, the results file, and BENCH_TAG, the
# prefix of its messages)
#   say TEXT...         "BENCH_TAG: TEXT"
#   run LOG TIMEOUT CMD...
#       Runs a contender with a hang guard, its output and stderr in LOG,
#       its exit status in RUN_RC; under perf record into LOG.data when
#       PROFILING is set (bench/perf-frames.sh).
#   record GROUP CELL CONTENDER REP FPS LOG
#       Appends "group=G cell=C contender=X rep=N fps=F <the tool's
#       key=value line>" to RES; a run that printed no result line gets
#       error="exit RC: <its first line of complaint>" instead.
#   profile_report CELL CONTENDER LOG
#       Where a profiled run's CPU time went, in microseconds per frame.

BENCH_LIB_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
PERF_FRAMES=$BENCH_LIB_DIR/perf-frames.sh

bench_abs() { readlink -m "$1"; }

bench_build() {
	local build=$1
	shift
	if [ ! -f "$build/build.ninja" ]; then
		meson setup "$build" -Dbench=enabled "$@"
	elif ! meson introspect "$build" --buildoptions |
		python3 -c 'import json, sys
sys.exit(not any(o["name"] == "bench" and o["value"] == "enabled" for o in json.load(sys.stdin)))'; then
		meson configure "$build" -Dbench=enabled
	fi
	ninja -C "$build"
	local t
	for t in fgrab-bare fgrab-meter fgrab-meter-preload.so; do
		[ -e "$build/bench/$t" ] || {
			echo "bench: $build/bench/$t was not built (needs gstreamer-app-1.0)" >&2
			return 1
		}
	done
}

say() { echo "${BENCH_TAG:-bench}: $*"; }

run() {
	local log=$1 tmo=$2 pre=()
	shift 2
	[ -z "${PROFILING:-}" ] || pre=("$PERF_FRAMES" record "$log.data")
	timeout -k 5 "$tmo" "${pre[@]}" "$@" >"$log" 2>&1 </dev/null
	RUN_RC=$?
}

record() {
	local line
	line=$(grep -E '^(frames=|error=)' "$6" | tail -n1)
	if [ -z "$line" ]; then
		# the program's own complaint (FFmpeg's), quotes and newlines removed
		line=$(grep -v '^fgrab-' "$6" | head -n1 | tr -d '"\n')
		line="error=\"exit ${RUN_RC:-?}: ${line:-no output}\""
	fi
	echo "group=$1 cell=$2 contender=$3 rep=$4 fps=$5 $line" >>"$RES"
	say "$2 $3 rep $4: $line"
}

profile_report() {
	local cpf
	cpf=$(grep -oE 'cpu_per_frame_us=[0-9.]+' "$3" | tail -n1 | cut -d= -f2)
	say "profile $1 $2: $(grep -E '^(frames=|error=)' "$3" | tail -n1 | cut -d' ' -f1) cpu_per_frame_us=${cpf:-?}"
	"$PERF_FRAMES" report "$3.data" "${cpf:-0}"
}
