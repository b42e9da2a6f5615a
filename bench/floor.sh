#!/bin/bash
# Is the bare read loop the floor?  Runs bench/guest-floor.sh in one VM boot
# (variants of the bare loop next to fgrabsrc and v4l2src rw, then perf stat
# and strace -c of each) and prints the table.
#
#   bench/floor.sh [OPTION...]
#     --seconds S, --reps N  each run, repetitions (default 10, 3)
#     --build-dir DIR        the meson build (default build; set up if missing)
#     --out DIR              results (default <build>/bench-floor)
#     --sizes, --contenders, --profile, --before, --no-trace
#                            see bench/guest-floor.sh
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd -P)
# shellcheck source=bench/lib.sh
. "$top/bench/lib.sh"
secs=10 reps=3 out="" build=$top/build guest_opts=()
while [ $# -gt 0 ]; do
	case $1 in
	--seconds) secs=$2; shift 2 ;;
	--reps) reps=$2; shift 2 ;;
	--out) out=$(bench_abs "$2"); shift 2 ;;
	--build-dir) build=$(bench_abs "$2"); shift 2 ;;
	--sizes | --contenders | --profile) guest_opts+=("$1" "$2"); shift 2 ;;
	--before) guest_opts+=(--before "$(bench_abs "$2")"); shift 2 ;;
	--no-trace) guest_opts+=(--no-trace); shift ;;
	-h | --help) sed -n '2,11p' "$0"; exit 0 ;;
	*) echo "floor.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
	esac
done
out=${out:-$build/bench-floor}
cd "$top"

tests/kernel/vm.sh install
bench_build "$build"
FGRAB_BUILD_DIR=$build tests/kernel/vm.sh run --out "$out" --timeout $(((secs + 8) * 12 * reps + 300)) \
	bench/guest-floor.sh "${guest_opts[@]}" "$secs" "$reps" | grep -E '^floor|^    '
python3 bench/report.py "$out/results.txt"
