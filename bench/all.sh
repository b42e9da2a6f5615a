#!/bin/bash
# Every measurement behind docs/performance.md, one command:
#
#   bench/all.sh [--out DIR] [--quick | --smoke]
#     --out DIR   results (default build/bench-all): profile.txt, bench/
#                 and bench-trixie/ (each results.txt, logs/ and the tables
#                 in tables.md)
#     --quick     shorter runs (15 s, 3 repetitions, 60 s soak: about 2
#                 hours in all instead of about 5; estimates under TCG)
#     --smoke     3 s runs, one repetition, 5 and 15 frames for callgrind:
#                 that every step runs here (about 12 minutes); its
#                 figures are too short to compare
#
# 1. bench/profile.sh: instructions a frame and at start-up on the fake
#    device (callgrind, no VM): the framework's floor.
# 2. bench/run.sh: every VM group on this machine's Debian (its kernel,
#    vivid, v4l2loopback): CPU a frame, start-up, latency, several devices.
# 3. bench/run.sh --dist trixie, the groups whose answer depends on the
#    kernel and v4l2loopback version (start-up, latency on v4l2loopback
#    0.15, several devices) in a Debian 13 root with its kernel 6.12.
# Needs root (the VM packages, the Debian 13 root) and valgrind.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd -P)
# shellcheck source=bench/lib.sh
. "$top/bench/lib.sh"
out=$top/build/bench-all
timing=() frames=()
while [ $# -gt 0 ]; do
	case $1 in
	--out) out=$(bench_abs "$2"); shift 2 ;;
	--quick) timing=(--seconds 15 --reps 3 --soak 60); shift ;;
	--smoke) timing=(--seconds 3 --reps 1 --soak 5) frames=(5 15); shift ;;
	-h | --help) sed -n '2,21p' "$0"; exit 0 ;;
	*) echo "all.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
	esac
done
mkdir -p "$out"
cd "$top"

bench/profile.sh "${frames[@]}" 2>&1 | tee "$out/profile.txt"
bench/run.sh "${timing[@]}" --out "$out/bench"
bench/run.sh "${timing[@]}" --out "$out" --dist trixie startup latency multi
for d in bench bench-trixie; do
	python3 bench/report.py "$out/$d/results.txt" >"$out/$d/tables.md"
done
echo "all.sh: done; tables in $out/profile.txt, $out/bench/tables.md and $out/bench-trixie/tables.md"
