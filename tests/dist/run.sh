#!/usr/bin/env bash
# The distribution tier: the plugin built and tested inside a Debian root of
# another release (tests/dist/root.sh), its unit tier run there and its
# kernel tier booting that release's kernel with that root as the guest's
# root (vm.sh runs inside the root, so qemu shares the root's / with the
# guest).  Kernel tests are named SUITE/<group>, in the meson suite
# kernel-SUITE, so that a failure says which distribution it was.
#
#   tests/dist/run.sh [--log-dir DIR] [--cache DIR] [--only unit|kernel] SUITE [GROUP...]
#   tests/dist/run.sh [--log-dir DIR] [--cache DIR] --only bench SUITE [BENCH-ARG...]
#     --log-dir  where the meson test logs go: test-output-SUITE-unit.txt
#                and test-output-SUITE-kernel.txt (default: the current
#                directory)
#     --cache    the roots' cache (default ${XDG_CACHE_HOME:-~/.cache}/fgrab/dist)
#     --only     run one of the two tiers; or, not a test, the benchmarks
#                (bench/run.sh with BENCH-ARGs in the root, its build in
#                /fgrab/build-bench there, its results and tables copied
#                to DIR/bench-SUITE)
#     GROUP...   run these kernel groups only (default: all)
#
# The checkout (tracked and untracked, not ignored, files) is copied to
# /fgrab/src in the root and built in /fgrab/build there.  A root that
# cannot be made, a build that fails or a VM that cannot boot is a failure
# (exit 1), never a skip.  Needs root (debootstrap, chroot, mount).
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd -P)
log_dir=.
cache=${XDG_CACHE_HOME:-$HOME/.cache}/fgrab/dist
only=
while [ $# -gt 0 ]; do
	case $1 in
	--log-dir) log_dir=$2; shift 2 ;;
	--cache) cache=$2; shift 2 ;;
	--only) only=$2; shift 2 ;;
	-h | --help) sed -n '2,20p' "$0"; exit 0 ;;
	-*) echo "run.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
	*) break ;;
	esac
done
suite=${1:?usage: tests/dist/run.sh [--log-dir DIR] SUITE [GROUP...]}
shift
groups=("$@")
mkdir -p "$log_dir"
log_dir=$(cd "$log_dir" && pwd -P)

# shellcheck source=scripts/lib/debroot.sh
. "$top/scripts/lib/debroot.sh"
# shellcheck source=scripts/lib/testnames.sh
. "$top/scripts/lib/testnames.sh"

log() { echo "dist/run.sh: $*" >&2; }
# timed LABEL COMMAND...: COMMAND, its duration logged under LABEL.
timed() {
	local label=$1 t0=$SECONDS st=0
	shift
	"$@" || st=$?
	log "$label: $((SECONDS - t0)) s (status $st)"
	return "$st"
}

root=$(timed "$suite root" "$top/tests/dist/root.sh" "$suite" "$cache") ||
	{ log "FAIL: the $suite root could not be made"; exit 1; }
trap 'chroot_umount "$root"' EXIT
chroot_mount "$root"

# A fresh copy of the checkout, at a path the guest sees too.  Its files
# are stamped now (tar -m): kept, a file's own time can be older than the
# object the root's last build made of an older version, and ninja would
# not build it again.
copy_source() {
	rm -rf --one-file-system "$root/fgrab/src"
	mkdir -p "$root/fgrab/src"
	git -C "$top" ls-files -z -co --exclude-standard |
		tar -C "$top" --null -T - -cf - | tar -C "$root/fgrab/src" -m -xf -
}
timed "copy of the checkout" copy_source ||
	{ log "FAIL: could not copy the checkout (a git checkout is needed)"; exit 1; }

# The benchmarks build what they need themselves (bench/run.sh).
if [ "$only" = bench ]; then
	rm -rf --one-file-system "$root/fgrab/bench-results" "$log_dir/bench-$suite"
	st=0 # pipefail: the status is bench/run.sh's
	timed "$suite bench" in_root "$root" /fgrab/src/bench/run.sh --build-dir /fgrab/build-bench \
		--out /fgrab/bench-results "${groups[@]}" | tee "$log_dir/bench-$suite.txt" || st=1
	cp -a "$root/fgrab/bench-results" "$log_dir/bench-$suite" 2>/dev/null ||
		{ log "FAIL: no bench results in the $suite root"; exit 1; }
	exit "$st"
fi

# build LOG: configure and build in the root, the output in LOG.
build() {
	local setup=(meson setup /fgrab/build /fgrab/src -Dtests=enabled -Dkernel-tests=enabled)
	[ ! -f "$root/fgrab/build/build.ninja" ] || setup+=(--reconfigure)
	{ in_root "$root" "${setup[@]}" && in_root "$root" ninja -C /fgrab/build; } >"$1" 2>&1
}
timed "$suite build" build "$log_dir/build-$suite.txt" ||
	{ tail -n 50 "$log_dir/build-$suite.txt" >&2; log "FAIL: the build in the $suite root failed"; exit 1; }

status=0
# meson_test LOG ARGS...: meson test inside the root, its summary in LOG.
meson_test() {
	local out=$1 st
	shift
	set +e
	in_root "$root" meson test -C /fgrab/build --print-errorlogs "$@" 2>&1 | tee "$out"
	st=${PIPESTATUS[0]}
	set -e
	[ "$st" = 0 ] || status=1
}

# The unit tier: every test but the kernel tiers and the style suite.  The
# style tests check the source against the host's tools, not the build on
# this distribution: gst-indent formats with Debian 12's GNU indent 2.2.12
# (2.2.13 formats some constructs differently), and reference-docs compares
# the committed pages, generated with Debian 12's GStreamer 1.22, with what
# scripts/gen-reference.py makes here (GStreamer 1.26's base classes add
# properties, e.g. GstBaseSrc's automatic-eos).  Nor the perf suite: its
# check compares instruction counts with docs/performance.md's, counted
# with Debian 12's GStreamer 1.22 and GLib.
unit_tier() {
	local names
	mapfile -t names < <(in_root "$root" meson test -C /fgrab/build --list --no-suite kernel --no-suite kernel-compare \
		--no-suite style --no-suite selftest --no-suite perf 2>/dev/null | test_names)
	[ "${#names[@]}" -gt 0 ] || { log "FAIL: no unit test in the $suite build"; status=1; return; }
	meson_test "$log_dir/test-output-$suite-unit.txt" --num-processes 2 "${names[@]}"
	# the test setup's own test (failures on purpose, checked by the script)
	in_root "$root" /fgrab/src/tests/check/selftest.sh /fgrab/build 2>&1 |
		tee "$log_dir/test-output-$suite-selftest.txt" || status=1
}
kernel_tier() {
	local g names=()
	# named groups by their names alone, so that a kernel-compare group
	# runs too; else the suite
	for g in "${groups[@]}"; do names+=("$suite/$g"); done
	[ "${#names[@]}" -gt 0 ] || names=(--suite "kernel-$suite")
	meson_test "$log_dir/test-output-$suite-kernel.txt" "${names[@]}"
	# the groups' VM (vm.sh group) powers off now, not when idle: it runs in
	# the root, whose mounts go when this script ends
	in_root "$root" /fgrab/src/tests/kernel/vm.sh stop /fgrab/build/tests/kernel || true
}
[ "$only" = kernel ] || timed "$suite unit tier" unit_tier
[ "$only" = unit ] || timed "$suite kernel tier" kernel_tier
exit "$status"
