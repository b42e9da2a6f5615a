#!/bin/bash
# Is the bare read loop the floor?  Runs bench/guest-floor.sh in one VM boot
# (variants of the bare loop next to fgrabsrc and v4l2src rw, then perf stat
# and strace -c of each) and prints the table.
#   bench/floor.sh [SECONDS [REPS [OUT]]]    (default 10 3 <build>/bench-floor)
#   FGRAB_FLOOR_CONTENDERS, FGRAB_FLOOR_SIZES, FGRAB_FLOOR_NO_TRACE: see bench/guest-floor.sh
# Uses the tools bench/run.sh builds (<build>/bench, or $FGRAB_BENCH_BIN).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd -P)
cd "$top"
build=${FGRAB_BUILD_DIR:-$top/build}
secs=${1:-10} reps=${2:-3} out=${3:-$build/bench-floor}
FGRAB_BUILD_DIR=$build tests/kernel/vm.sh run --out "$out" --timeout $(((secs + 8) * 12 * reps + 300)) \
	bench/guest-floor.sh "$secs" "$reps" | grep -E '^floor|^    '
python3 bench/report.py "$out/results.txt"
