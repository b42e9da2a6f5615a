#!/bin/bash
# Runs every benchmark side by side in one boot of the kernel tier's VM and
# prints the tables (docs/performance.md says how to read them).
#
#   bench/run.sh [OPTION...] [GROUP...]
#     --seconds S            each run (default 60)
#     --reps N               repetitions, contenders alternated (default 3)
#     --soak S               the soak group's run (default 60)
#     --build-dir DIR        the meson build (default build; set up if missing)
#     --out DIR              results (default <build>/bench-results)
#     --sizes "WxH ..."      capture sizes (default 320x180 640x360 1280x720 1920x1080)
#     --contenders "NAME ..."  only these contenders of every cell
#     --profile "NAME ..."   output contenders to run once more under perf record
#     --before PLUGIN_DIR    another build's gst/fgrab: its fgrabsrc joins the
#                            capture cells as fgrabsrc-before (before/after)
#     --dist SUITE           in a root of that Debian release with its kernel
#                            and v4l2loopback (tests/dist/run.sh, e.g. trixie:
#                            6.12 and 0.15); results in DIR/bench-SUITE
# Groups: capture startup loopback latency multi slow output output-fast
# vivid-out soak (default all; about 3.5 hours under TCG with the defaults).
# Builds the plugin and the bench tools with -Dbench=enabled
# (<build>/bench); installs the VM packages like the kernel tier.  Raw
# results: DIR/results.txt, one line a run; the per-run logs in DIR/logs.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd -P)
# shellcheck source=bench/lib.sh
. "$top/bench/lib.sh"
secs=60 reps=3 soak=60 out="" build=$top/build guest_opts=() dist="" args=("$@")
while [ $# -gt 0 ]; do
	case $1 in
	--seconds) secs=$2; shift 2 ;;
	--reps) reps=$2; shift 2 ;;
	--soak) soak=$2; shift 2 ;;
	--out) out=$(bench_abs "$2"); shift 2 ;;
	--build-dir) build=$(bench_abs "$2"); shift 2 ;;
	--sizes | --contenders | --profile) guest_opts+=("$1" "$2"); shift 2 ;;
	--before) guest_opts+=(--before "$(bench_abs "$2")"); shift 2 ;;
	--dist) dist=$2; shift 2 ;;
	-h | --help) sed -n '2,23p' "$0"; exit 0 ;;
	-*) echo "run.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
	*) break ;;
	esac
done
out=${out:-$build/bench-results}
cd "$top"

# Another release: this script again, inside its root, with the other
# options (tests/dist/run.sh makes the root, copies the checkout and
# copies the results out).
if [ -n "$dist" ]; then
	rest=()
	while [ ${#args[@]} -gt 0 ]; do
		case ${args[0]} in
		--dist | --out | --build-dir) args=("${args[@]:2}") ;;
		*) rest+=("${args[0]}"); args=("${args[@]:1}") ;;
		esac
	done
	exec tests/dist/run.sh --log-dir "$out" --only bench "$dist" "${rest[@]}"
fi

tests/kernel/vm.sh install
bench_build "$build"

# up to 80 runs a repetition, each the run time plus a few seconds of start-up
tmo=$(((secs + 8) * 80 * reps + 2 * soak + 1200))
echo "run.sh: ${secs} s a run, $reps repetitions, ${soak} s soak; VM limit ${tmo} s"
FGRAB_BUILD_DIR=$build tests/kernel/vm.sh run --out "$out" --timeout "$tmo" \
	bench/guest-bench.sh "${guest_opts[@]}" "$secs" "$reps" "$soak" "$@"
python3 bench/report.py "$out/results.txt"
