#!/bin/bash
# Where a run's CPU time goes, in microseconds per frame.
#   perf-frames.sh record PERF_DATA CMD...   run CMD under perf record,
#       sampling its CPU clock every 250 us from 3 s after its start
#   perf-frames.sh report PERF_DATA CPU_PER_FRAME_US   each entry's share
#       of the samples times the CPU per frame the run itself reported: the
#       top 20 by library (DSO), then by library and function
# Report where the run was recorded (the VM): kernel symbols are those of
# the running kernel.
set -uo pipefail
mode=$1 data=$2
shift 2
command -v perf >/dev/null || { echo "perf-frames.sh: perf not found (Debian: linux-perf)" >&2; exit 1; }
case $mode in
record) exec perf record -q -e cpu-clock -c 250000 -D 3000 -o "$data" "$@" ;;
report)
	for keys in dso dso,sym; do
		perf report -i "$data" --stdio -q --sort "$keys" 2>/dev/null | head -n 20 |
			awk -v c="${1:-0}" '$1 ~ /%$/ { p = $1; sub(/%/, "", p); printf "    %7.0f us/frame %s\n", p * c / 100, $0 }'
	done
	;;
*) echo "usage: perf-frames.sh record DATA CMD... | report DATA CPU_PER_FRAME_US" >&2; exit 2 ;;
esac
