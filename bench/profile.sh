#!/bin/bash
# Instructions per frame of fgrabsrc and v4l2src io-mode=rw above a bare
# poll()+read() loop, counted by callgrind on the unit tier's fake device
# (bench/profile-fake.c says why that is a fair floor).  Reproducible: the
# counts do not depend on the machine's load.
#
#   bench/profile.sh [N1 N2]     (default 50 250 frames)
# Needs valgrind and a build with the unit tier (-Dtests=enabled) in
# $FGRAB_BUILD_DIR (default build-prof/, set up here if missing).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd -P)
cd "$top"
n1=${1:-50} n2=${2:-250}
build=${FGRAB_BUILD_DIR:-$top/build-prof}
command -v valgrind >/dev/null || { echo "profile.sh: install valgrind" >&2; exit 1; }
[ -f "$build/build.ninja" ] || meson setup "$build" -Dtests=enabled -Dkernel-tests=disabled
ninja -C "$build" tests/fakedev/libfakev4l2.so gst/fgrab/libgstfgrab.so >/dev/null
fake=$build/tests/fakedev/libfakev4l2.so
out=$build/profile
mkdir -p "$out"
# shellcheck disable=SC2046 # pkg-config prints words
cc -O2 -g -Wall -I tests/fakedev -o "$out/profile-fake" bench/profile-fake.c \
	$(pkg-config --cflags --libs gstreamer-1.0) -L"$(dirname "$fake")" -lfakev4l2 \
	-Wl,-rpath,"$(dirname "$fake")"
export GST_PLUGIN_PATH=$build/gst/fgrab GST_REGISTRY=$out/registry.bin
LD_PRELOAD=$fake "$out/profile-fake" src 2 >/dev/null # registry
ir() { # MODE N: total instructions of one run
	local f=$out/cg-$1-$2.out
	LD_PRELOAD=$fake valgrind --tool=callgrind --callgrind-out-file="$f" \
		"$out/profile-fake" "$1" "$2" >"$out/cg-$1-$2.log" 2>&1
	sed -n 's/^summary: //p' "$f"
}
declare -A per
for m in bare src rw; do
	a=$(ir $m "$n1") b=$(ir $m "$n2")
	per[$m]=$(((b - a) / (n2 - n1)))
	echo "$m: $a instructions for $n1 frames, $b for $n2: ${per[$m]} per frame"
done
echo
echo "per frame above the bare loop: fgrabsrc $((per[src] - per[bare])), v4l2src rw $((per[rw] - per[bare]))"
echo "frame: 640x360 YUYV, 460800 bytes"
echo
echo "fgrabsrc, the functions that grow with the frame count ($n2 vs $n1 frames, inclusive):"
python3 - "$out/cg-src-$n1.out" "$out/cg-src-$n2.out" "$n1" "$n2" <<'PY'
import subprocess, sys, re
def incl(path):
    txt = subprocess.run(["callgrind_annotate", "--inclusive=yes", "--threshold=100", path],
                         capture_output=True, text=True).stdout
    d = {}
    for line in txt.splitlines():
        m = re.match(r"\s*([\d,]+)\s+\(\s*[\d.]+%\)\s+(.*)$", line)
        if m:
            d[m.group(2).strip()] = int(m.group(1).replace(",", ""))
    return d
a, b = incl(sys.argv[1]), incl(sys.argv[2])
n = int(sys.argv[4]) - int(sys.argv[3])
rows = sorted(((b[k] - a.get(k, 0)) / n, k) for k in b)
for v, k in reversed(rows[-25:]):
    print("%12.0f  %s" % (v, k))
PY
