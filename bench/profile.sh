#!/bin/bash
# Instructions per frame of fgrab's elements and their stock peers above a
# bare loop, counted by callgrind on the unit tier's fake device
# (bench/profile-fake.c says why that is a fair floor), the fake's own
# work left out as a system call's is (bench/profile-count.py).
# Reproducible: the counts do not depend on the machine's load.
#
#   bench/profile.sh [--build-dir DIR] [capture|output|startup] [N1 N2]
#                                  (default every part, 50 and 250 frames)
#
# Each element's overhead is its instructions a frame minus the bare
# loop's; the framework's floor (floorsrc, floorsink: bench/fgrab-floor.c)
# is the least any GStreamer element pays, and fgrab's elements are given
# as a ratio of their overhead to the floor's.
# capture: floorsrc, fgrabsrc and v4l2src io-mode=rw against poll()+read();
# fgrabsrc also on a camera that sends events and with signal-loss=black
# and nothing while the signal is there (what they cost when unused).
# output: floorsink and fgrabsink unpaced against poll()+write() (fgrabsink
# also with keep-alive=repeat, frames coming in time), fgrabsink paced by the
# clock (sync=true) against the same loop sleeping to each frame's due
# time, each with and without QoS (GstBaseSink's QoS event upstream a
# buffer); with the calls a frame of the C library functions that enter the
# kernel (under TCG the clock reads are system calls too, see
# docs/performance.md).
# startup: instructions from the NULL->PLAYING request to the first buffer
# of fgrabsrc and v4l2src io-mode=rw on a camera of 40 sizes x 8 frame
# rates (callgrind's counts zeroed and dumped by profile-fake itself; the
# fake device's work left out here too).
# Needs valgrind and a build with the unit tier and the bench tools
# (-Dtests=enabled -Dbench=enabled) in DIR (default build-prof/, set up
# here if missing, the option turned on if not).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd -P)
# shellcheck source=bench/lib.sh
. "$top/bench/lib.sh"
build=$top/build-prof
if [ "${1:-}" = --build-dir ]; then
	build=$(bench_abs "$2")
	shift 2
fi
part=all
case ${1:-} in capture | output | startup) part=$1 && shift ;; esac
n1=${1:-50} n2=${2:-250}
cd "$top"
command -v valgrind >/dev/null || { echo "profile.sh: install valgrind" >&2; exit 1; }
bench_build "$build" -Dtests=enabled -Dkernel-tests=disabled >/dev/null
fake=$build/tests/fakedev/libfakev4l2.so
prog=$build/bench/profile-fake
[ -x "$prog" ] || { echo "profile.sh: $prog was not built: $build needs -Dtests=enabled" >&2; exit 1; }
out=$build/profile
mkdir -p "$out"
export GST_PLUGIN_PATH=$build/gst/fgrab GST_REGISTRY=$out/registry.bin
LD_PRELOAD=$fake "$prog" src 2 >/dev/null # registry
ir() { # MODE N: total instructions of one run
	local f=$out/cg-$1-$2.out
	LD_PRELOAD=$fake valgrind --tool=callgrind --callgrind-out-file="$f" \
		"$prog" "$1" "$2" >"$out/cg-$1-$2.log" 2>&1
	grep -h '^profile-fake: ' "$out/cg-$1-$2.log" | sed "s/^/$1 $2: /" >&2 || true
	python3 "$top/bench/profile-count.py" "$f"
}
declare -A per
per_frame() { # MODE...: instructions per frame of each, into per[]
	local m a b
	for m in "$@"; do
		a=$(ir "$m" "$n1") b=$(ir "$m" "$n2")
		per[$m]=$(((b - a) / (n2 - n1)))
		echo "$m: $a instructions for $n1 frames, $b for $n2: ${per[$m]} per frame"
	done
}
d() { echo $((per[$1] - per[$2])); } # A B: per[A] - per[B]
floor_table() { # WHAT BARE FLOOR FLOOR2 MODE=LABEL...: against the bare loop and the floors
	local what=$1 bare=$2 floor=$3 floor2=$4 m
	shift 4
	echo "| $what | instructions a frame | overhead (above the bare loop) | ÷ floor's overhead | ÷ $floor2's overhead |"
	echo "|---|---|---|---|---|"
	for m in "$bare=bare loop" "$floor=$floor" "$floor2=$floor2" "$@"; do
		awk -v l="${m#*=}" -v a="${per[${m%%=*}]}" -v b="${per[$bare]}" \
			-v f="$(d "$floor" "$bare")" -v g="$(d "$floor2" "$bare")" 'BEGIN {
			r = f > 0 ? sprintf("%.2f", (a - b) / f) : "-"
			q = g > 0 ? sprintf("%.2f", (a - b) / g) : "-"
			printf "| %s | %d | %d | %s | %s |\n", l, a, a - b, r, q }'
	done
}
startup_ir() { # MODE: instructions from NULL->PLAYING to the first buffer
	local f=$out/cg-$1-startup.out
	rm -f "$f" "$f".*
	LD_PRELOAD=$fake valgrind --tool=callgrind --callgrind-out-file="$f" \
		"$prog" "$1" 1 >"$out/cg-$1-startup.log" 2>&1
	[ -f "$f.1" ] || { echo "profile.sh: no dump at the first buffer ($f.1): $prog built without valgrind/callgrind.h?" >&2; exit 1; }
	python3 "$top/bench/profile-count.py" "$f.1"
}
report() { # incl MODE [BASE] | calls MODE...: from the callgrind files
	python3 - "$out" "$n1" "$n2" "$@" <<'PY'
import re, subprocess, sys
out, n1, n2, what, modes = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], sys.argv[5:]
n = n2 - n1
def path(m, k):
    return "%s/cg-%s-%d.out" % (out, m, k)
def incl(p):
    txt = subprocess.run(["callgrind_annotate", "--inclusive=yes", "--threshold=100", p],
                         capture_output=True, text=True).stdout
    d = {}
    for line in txt.splitlines():
        mm = re.match(r"\s*([\d,]+)\s+\(\s*[\d.]+%\)\s+(.*)$", line)
        if mm:
            d[mm.group(2).strip()] = int(mm.group(1).replace(",", ""))
    return d
def grow(m):
    a, b = incl(path(m, n1)), incl(path(m, n2))
    return {k: (b[k] - a.get(k, 0)) / n for k in b}
# the C library entry points that enter the kernel (or would under TCG)
CALLS = ["clock_gettime", "clock_nanosleep", "poll", "ppoll", "write", "read",
         "syscall", "pthread_cond_timedwait", "pthread_cond_clockwait",
         "pthread_cond_wait", "pthread_cond_signal", "pthread_cond_broadcast"]
def calls(p):
    names, count = {}, {}
    cur = None
    with open(p) as f:
        for line in f:
            mm = re.match(r"cfn=\((\d+)\)(?: (.*))?$", line)
            if mm:
                if mm.group(2):
                    names[mm.group(1)] = mm.group(2)
                cur = names.get(mm.group(1))
                continue
            mm = re.match(r"fn=\((\d+)\)(?: (.*))?$", line)
            if mm:
                if mm.group(2):
                    names[mm.group(1)] = mm.group(2)
                continue
            mm = re.match(r"calls=(\d+) ", line)
            if mm and cur:
                base = re.sub(r"@.*$", "", cur.split("'")[0])
                if base in CALLS:
                    count[base] = count.get(base, 0) + int(mm.group(1))
    return count
if what == "incl":
    g = grow(modes[0])
    if len(modes) > 1:
        base = grow(modes[1])
        g = {k: v - base.get(k, 0) for k, v in g.items()}
    rows = sorted((v, k) for k, v in g.items())
    for v, k in reversed(rows[-25:]):
        print("%12.0f  %s" % (v, k))
else:
    rows = []
    for m in modes:
        a, b = calls(path(m, n1)), calls(path(m, n2))
        rows.append((m, {k: (b.get(k, 0) - a.get(k, 0)) / n for k in CALLS}))
    used = [k for k in CALLS if any(abs(r[1][k]) >= 0.01 for r in rows)]
    print("| calls a frame | " + " | ".join(used) + " |")
    print("|---" * (len(used) + 1) + "|")
    for m, r in rows:
        print("| %s | " % m + " | ".join("%.2f" % r[k] for k in used) + " |")
PY
}
if [ "$part" = all ] || [ "$part" = capture ]; then
	per_frame bare floor floor-ts src src-events src-black src-nothing rw
	echo
	echo "frame: 160x90 YUYV, 28800 bytes, 30 fps on the camera's clock; floor: floorsrc, floor-ts: floorsrc do-timestamp=true"
	echo
	floor_table capture bare floor floor-ts src=fgrabsrc \
		"src-events=fgrabsrc, a camera with events" \
		"src-black=fgrabsrc signal-loss=black (signal present)" \
		"src-nothing=fgrabsrc signal-loss=nothing (signal present)" \
		"rw=v4l2src io-mode=rw"
	echo
	echo "against fgrabsrc on the camera without events: with events $(d src-events src)," \
		"signal-loss=black $(d src-black src), signal-loss=nothing $(d src-nothing src)"
	echo
	echo "fgrabsrc minus floorsrc do-timestamp=true, the functions that grow with the frame count ($n2 vs $n1 frames, inclusive, per frame):"
	report incl src floor-ts
	echo
fi
if [ "$part" = all ] || [ "$part" = output ]; then
	per_frame bare-write floor-write floor-write-qos bare-write-paced sink sink-noqos sink-sync sink-sync-noqos sink-keepalive
	echo
	echo "floor-write: floorsink sync=false, floor-write-qos: the same with qos=true (fgrabsink's default)"
	echo
	floor_table "output, unpaced (sync=false)" bare-write floor-write floor-write-qos \
		sink=fgrabsink "sink-noqos=fgrabsink qos=false" \
		"sink-keepalive=fgrabsink keep-alive=repeat (frames in time)"
	echo
	echo "per frame above the bare write loop: fgrabsink unpaced $(d sink bare-write)," \
		"unpaced without QoS $(d sink-noqos bare-write)," \
		"paced $(d sink-sync bare-write-paced), paced without QoS $(d sink-sync-noqos bare-write-paced)"
	echo "paced minus unpaced: bare loop $(d bare-write-paced bare-write)," \
		"fgrabsink $(d sink-sync sink), fgrabsink without QoS $(d sink-sync-noqos sink-noqos)"
	echo "keep-alive=repeat against off (frames in time): $(d sink-keepalive sink)"
	echo "frame: 160x90 YUYV, 28800 bytes, 30 fps when paced"
	echo
	report calls bare-write floor-write bare-write-paced sink sink-noqos sink-sync sink-sync-noqos
	echo
	echo "fgrabsink minus floorsink qos=true (unpaced), the functions that grow with the frame count (inclusive, per frame):"
	report incl sink floor-write-qos
	echo
	echo "fgrabsink paced minus unpaced, the functions that grow with the frame count (inclusive, per frame):"
	report incl sink-sync sink
	echo
	echo "fgrabsink with QoS minus without (unpaced), the same:"
	report incl sink sink-noqos
fi
if [ "$part" = all ] || [ "$part" = startup ]; then
	a=$(startup_ir startup-src) b=$(startup_ir startup-rw)
	echo
	echo "start-up, NULL->PLAYING to the first buffer, YUYV at 40 sizes x 8 frame rates (the fake device's work left out):"
	echo "| element | instructions |"
	echo "|---|---|"
	echo "| fgrabsrc | $a |"
	echo "| v4l2src io-mode=rw | $b |"
fi
