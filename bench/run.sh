#!/bin/bash
# Runs every benchmark side by side in one boot of the kernel tier's VM and
# prints the tables (docs/performance.md says how to read them).
#
#   bench/run.sh [--seconds S] [--reps N] [--soak S] [--out DIR] [GROUP...]
#
# Defaults: 60 s per run, 3 repetitions, a 60 s soak: about 2.5 hours
# under TCG.  Groups: capture loopback slow output output-fast vivid-out soak.
# Builds the plugin (meson, in $FGRAB_BUILD_DIR or build/) and the bench
# tools (into <build>/bench); installs the VM packages like the kernel tier.
# Raw results: DIR/results.txt (default <build>/bench-results), one line a run.
# FGRAB_BEFORE_PLUGIN_DIR=<another build>/gst/fgrab adds that build's fgrabsrc
# to the capture cells as fgrabsrc-before (before/after in the same run).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd -P)
cd "$top"
secs=60 reps=3 soak=60 out=
while [ $# -gt 0 ]; do
	case $1 in
	--seconds) secs=$2; shift 2 ;;
	--reps) reps=$2; shift 2 ;;
	--soak) soak=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	-h | --help) sed -n '2,13p' "$0"; exit 0 ;;
	-*) echo "run.sh: unknown option $1" >&2; exit 2 ;;
	*) break ;;
	esac
done
build=${FGRAB_BUILD_DIR:-$top/build}
out=${out:-$build/bench-results}

tests/kernel/vm.sh install
[ -f "$build/build.ninja" ] || meson setup "$build"
ninja -C "$build"
mkdir -p "$build/bench"
cflags=(-O2 -g -Wall -Wextra -Wno-unused-parameter -Wno-missing-field-initializers)
cc "${cflags[@]}" -o "$build/bench/fgrab-bare" bench/fgrab-bare.c
# shellcheck disable=SC2046 # pkg-config prints words
cc "${cflags[@]}" -o "$build/bench/fgrab-meter" bench/fgrab-meter.c \
	$(pkg-config --cflags --libs gstreamer-1.0 gstreamer-app-1.0 gstreamer-video-1.0)
cc "${cflags[@]}" -shared -fPIC -o "$build/bench/fgrab-meter-preload.so" \
	bench/fgrab-meter-preload.c -ldl

# up to 52 runs a repetition, each the run time plus a few seconds of start-up
tmo=$(((secs + 8) * 52 * reps + 2 * soak + 600))
echo "run.sh: ${secs} s a run, $reps repetitions, ${soak} s soak; VM limit ${tmo} s"
FGRAB_BUILD_DIR=$build tests/kernel/vm.sh run --out "$out" --timeout "$tmo" \
	bench/guest-bench.sh "$secs" "$reps" "$soak" "$@"
python3 bench/report.py "$out/results.txt"
