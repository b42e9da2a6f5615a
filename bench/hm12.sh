#!/bin/bash
# fgrabsrc's HM12 de-tiler against libv4lconvert's converter on the same
# frames (bench/fgrab-hm12.c), at the sizes of a cx2341x card: CPU time a
# frame and the ratios (REPS runs each), then callgrind's instructions a
# frame of each, which do not depend on the machine's load.
#
#   bench/hm12.sh [--build-dir DIR] [REPS [FRAMES]]   (default 3 and 2000)
#
# Needs valgrind and libv4l-dev; builds DIR (default build-bench/) with
# -Dbench=enabled.  A few seconds a size, callgrind included.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd -P)
# shellcheck source=bench/lib.sh
. "$top/bench/lib.sh"
build=$top/build-bench
if [ "${1:-}" = --build-dir ]; then
	build=$(bench_abs "$2")
	shift 2
fi
reps=${1:-3} frames=${2:-2000}
cd "$top"
command -v valgrind >/dev/null || { echo "hm12.sh: install valgrind" >&2; exit 1; }
bench_build "$build" >/dev/null
prog=$build/bench/fgrab-hm12
sizes=("720 480" "720 576" "704 576" "480 480" "352 480")

echo "# CPU time a frame (µs), $reps runs of $frames frames"
for s in "${sizes[@]}"; do
	for _ in $(seq "$reps"); do
		# shellcheck disable=SC2086 # "W H" is two arguments
		"$prog" $s "$frames"
	done
done

# instructions of bench/fgrab-hm12.c's run() alone, a frame
ir() { # MODE W H
	local f n=50
	f=$(mktemp)
	valgrind --tool=callgrind --toggle-collect=run --callgrind-out-file="$f" \
		"$prog" "$1" "$n" "$2" "$3" 2>/dev/null
	sed -n 's/^summary: //p' "$f" | awk -v n="$n" '{ printf "%d", $1 / n }'
	rm -f "$f"
}
echo
echo "# callgrind, instructions a frame"
echo "| frame | fgrab de-tile | libv4lconvert | memcpy | fgrab / libv4lconvert |"
echo "|---|---|---|---|---|"
for s in "${sizes[@]}"; do
	# shellcheck disable=SC2086
	d=$(ir detile $s) v=$(ir v4lconvert $s) m=$(ir memcpy $s)
	awk -v s="${s/ /x}" -v d="$d" -v v="$v" -v m="$m" \
		'BEGIN { printf "| %s | %d | %d | %d | %.3f |\n", s, d, v, m, d / v }'
done
