#!/usr/bin/env bash
# Installs what is missing (Debian, as root), configures, builds and runs
# every test tier: unit (fake device), kernel (vivid and v4l2loopback in a
# qemu VM) and peers (FFmpeg, v4l2-ctl; they run inside the kernel tier's
# VM).  Then the unit tier's gst-check tests again under valgrind memcheck
# and, in a second build with clang, under ASan+UBSan, together with the
# libFuzzer target over driver answers (tests/fuzz).  Ends with the totals
# of every run on one line: "N passed, N failed".
#
#   scripts/test.sh [--build-dir DIR] [--sanitize-build-dir DIR]
#     --build-dir           the build of the normal tiers (default build)
#     --sanitize-build-dir  the clang ASan+UBSan build (default DIR-sanitize)
# The other distributions' tiers (Debian 13 "trixie", Debian testing
# "forky") log to DIR-trixie and DIR-forky.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
build=build
sanitize_build=
while [ $# -gt 0 ]; do
  case $1 in
    --build-dir) build=$2; shift 2 ;;
    --sanitize-build-dir) sanitize_build=$2; shift 2 ;;
    -h | --help) sed -n '2,12p' "$0"; exit 0 ;;
    *) echo "test.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
done
sanitize_build=${sanitize_build:-$build-sanitize}
# The distributions tested in roots of their own (tests/dist/), oldest
# first, and their names in the time table
dist_suites=(trixie forky)
declare -A dist_name=([trixie]="Debian 13" [forky]="forky")

# shellcheck source=scripts/lib/timetable.sh
. scripts/lib/timetable.sh
# shellcheck source=scripts/lib/packages.sh
. scripts/lib/packages.sh
# shellcheck source=scripts/lib/testnames.sh
. scripts/lib/testnames.sh
install_packages test.sh meson ninja-build pkg-config gcc libc6-dev linux-libc-dev \
  libglib2.0-dev libgstreamer1.0-dev libgstreamer-plugins-base1.0-dev \
  gstreamer1.0-tools gstreamer1.0-plugins-base gstreamer1.0-plugins-good \
  indent valgrind clang llvm libv4l-dev libzvbi-dev \
  python3-gi gstreamer1.0-plugins-bad gir1.2-gst-rtsp-server-1.0 ffmpeg \
  debhelper dpkg-dev fakeroot lintian debootstrap || exit 1

# The kernel tier brings its own packages (qemu, the Debian kernel,
# v4l2loopback, ffmpeg, v4l-utils) and fails loudly if it cannot.
if [ -x tests/kernel/vm.sh ]; then
  tests/kernel/vm.sh install
fi
tt_lap "install"

if [ -d "$build" ]; then
  meson setup --reconfigure "$build" -Dtests=enabled -Dkernel-tests=enabled
else
  meson setup "$build" -Dtests=enabled -Dkernel-tests=enabled
fi
ninja -C "$build"
tt_lap "build"

outputs=()
status=0
build_failures=0

# run_tests LOG ARGS...: one meson test run, its summary kept in LOG;
# meson's own full log (every test's output, TAP lines too) goes to
# meson-logs/testlog-<LOG's name>.txt, so that the next run does not
# overwrite what a failed test printed.
run_tests () {
  local log=$1 st
  shift
  outputs+=("$log")
  set +e
  meson test "$@" --print-errorlogs --logbase "testlog-$(basename "$log" .txt)" 2>&1 | tee "$log"
  st=${PIPESTATUS[0]}
  set -e
  if [ "$st" != 0 ]; then status=1; fi
}

# start_bg LOG COMMAND...: COMMAND in the background, its output in LOG
# (printed by finish_bg), its duration at the end of LOG.dt; sets BG_PID.
# finish_bg PID LOG: waits for it, prints LOG, and returns its exit status.
start_bg () {
  local log=$1
  shift
  (
    t0=$SECONDS
    st=0
    "$@" >"$log" 2>&1 || st=$?
    echo $((SECONDS - t0)) >"$log.dt"
    exit "$st"
  ) &
  BG_PID=$!
}
finish_bg () {
  local st=0
  wait "$1" || st=$?
  cat "$2"
  return "$st"
}
# bg_time LOG: the seconds the background job of LOG took
bg_time () { cat "$1.dt" 2>/dev/null || echo 0; }

# run_selftest BUILD [SETUP]: the test setup's own test (tests/check/
# selftest.sh: failures on purpose must end their suite at once, named
# with their messages), its meson-style summary counted with the others.
run_selftest () {
  local log=$1/test-output-selftest${2:+-$2}.txt
  outputs+=("$log")
  tests/check/selftest.sh "$@" 2>&1 | tee "$log" || status=1
}

# the selftest suite fails on purpose: run_selftest checks it
run_tests "$build/test-output.txt" -C "$build" --num-processes 2 \
  --no-suite selftest --no-suite kernel --no-suite kernel-compare
run_selftest "$build"
tt_lap "unit (Debian 12)"
# The kernel tier alone (its tests run one at a time in one VM anyway),
# so that its time is its own; then its VM powers off at once.
kernel_log=$build/test-output-kernel.txt
run_tests "$kernel_log" -C "$build" --suite kernel
tests/kernel/vm.sh stop "$build/tests/kernel" || true
tt_lap "kernel (Debian 12)"

# The other distributions' roots (tests/dist/root.sh: debootstrap and
# apt, about 5 minutes each the first time, cached after that) are made
# in the background, one after the other, while the memory checkers and
# the package test run: after the kernel tier, whose timing-sensitive
# scenarios would feel the load.
make_roots () {
  local suite st=0
  for suite in "${dist_suites[@]}"; do
    t0=$SECONDS
    tests/dist/root.sh "$suite" "${XDG_CACHE_HOME:-$HOME/.cache}/fgrab/dist" \
      >"$build-$suite/root.txt" 2>&1 || { st=1; echo failed >"$build-$suite/root.failed"; }
    echo $((SECONDS - t0)) >"$build-$suite/root.txt.dt"
  done
  return "$st"
}
for suite in "${dist_suites[@]}"; do
  mkdir -p "$build-$suite"
  rm -f "$build-$suite"/test-output-*.txt "$build-$suite/root.failed"
done
make_roots &
dist_roots_pid=$!

# The tests that run in-process against the fake device, which both
# memory checkers can see whole: meson's suite "memcheck" (a second label
# next to "unit", tests/check/meson.build and tests/fakedev/meson.build).
# Left out there: tests that run another program (gst-inspect-1.0, python,
# an installed copy) where the checking would stop at the child.  The
# stress suite, too slow under memcheck, runs under the sanitizers only.
# suite_tests BUILD SUITE...: the names of the tests in any of the suites.
suite_tests () {
  local b=$1 s args=()
  shift
  for s in "$@"; do args+=(--suite "$s"); done
  meson test -C "$b" --list "${args[@]}" 2>/dev/null | test_names
}
# Without names meson would run every test: refuse instead.
need_tests () {
  if [ $# -eq 0 ]; then
    echo "test.sh: no unit test to run under the memory checkers" >&2
    exit 1
  fi
}

# Valgrind memcheck (meson.build's "valgrind" setup: leaks and errors fail
# a test; suppressions in tests/valgrind/fgrab.supp).
mapfile -t unit_tests < <(suite_tests "$build" memcheck)
need_tests "${unit_tests[@]}"
run_tests "$build/test-output-valgrind.txt" -C "$build" --setup valgrind \
  --num-processes 2 "${unit_tests[@]}"
run_selftest "$build" valgrind
tt_lap "valgrind"

# ASan+UBSan and the fuzzer: a clang build of its own, without the kernel
# tier.  clang links the sanitizer runtimes into each test program, so the
# fake device's LD_PRELOAD needs no ordering (see tests/fakedev/meson.build).
# shellcheck disable=SC2054 # the comma is -Db_sanitize's list
sanitize_opts=(-Dtests=enabled -Dkernel-tests=disabled -Dfuzzing=enabled
  -Db_sanitize=address,undefined -Db_lundef=false
  -Dc_args=-fno-sanitize-recover=undefined)
if [ -d "$sanitize_build" ]; then
  sanitize_setup=(meson setup --reconfigure "$sanitize_build" "${sanitize_opts[@]}")
else
  sanitize_setup=(meson setup "$sanitize_build" "${sanitize_opts[@]}")
fi
if CC=clang "${sanitize_setup[@]}" && ninja -C "$sanitize_build"; then
  # the stress suite too: its races (caps queries during renegotiation)
  # are what ASan catches
  mapfile -t unit_tests < <(suite_tests "$sanitize_build" memcheck stress)
  need_tests "${unit_tests[@]}"
  run_tests "$sanitize_build/test-output-sanitize.txt" -C "$sanitize_build" \
    --setup sanitize --num-processes 2 "${unit_tests[@]}"
  run_selftest "$sanitize_build" sanitize
  # replay of seeds and regressions, then a bounded fuzzing run: on one
  # core, while the package test and Debian 13's unit tier use the other
  outputs+=("$sanitize_build/test-output-fuzz.txt")
  start_bg "$sanitize_build/test-output-fuzz.txt" meson test -C "$sanitize_build" \
    --setup sanitize --suite fuzz --num-processes 1 --print-errorlogs
  fuzz_pid=$BG_PID
else
  echo "test.sh: the sanitizer/fuzzer build in $sanitize_build failed" >&2
  build_failures=$((build_failures + 1))
  status=1
fi
tt_lap "sanitize (clang build, ASan+UBSan)"

# The Debian package (tests/pkg/run.sh): meson dist, dpkg-buildpackage,
# lintian, and install/gst-inspect/purge in a throwaway minimal root of
# this release (cached by tests/pkg/debroot.sh; the first run makes it).
# Its log ends with meson-style Ok:/Fail: lines, counted below.
outputs+=("$build/test-output-pkg.txt")
if ! tests/pkg/run.sh --build-dir "$build" 2>&1 | tee "$build/test-output-pkg.txt"; then
  status=1
fi
tt_lap "package"

# The other distributions: each one's unit tier (the first beside the
# fuzzer), then its kernel groups (tests/kernel/meson.build says which),
# named SUITE/<group>, in its root.  A root that could not be made, a
# build that failed there or a log without a meson summary is a failure.
wait "$dist_roots_pid" || true
tt_lap "wait for the distributions' roots"
for suite in "${dist_suites[@]}"; do
  logs=$build-$suite
  cat "$logs/root.txt"
  tt_add "${dist_name[$suite]} root (background)" "$(bg_time "$logs/root.txt")"
  if [ -f "$logs/root.failed" ]; then
    echo "test.sh: the $suite root could not be made (log above)" >&2
    continue
  fi
  tests/dist/run.sh --log-dir "$logs" --only unit "$suite" || status=1
  tt_lap "${dist_name[$suite]} build and unit"
  if [ -n "${fuzz_pid:-}" ]; then
    finish_bg "$fuzz_pid" "$sanitize_build/test-output-fuzz.txt" || status=1
    tt_lap "wait for the fuzzer"
    tt_add "fuzzer (background)" "$(bg_time "$sanitize_build/test-output-fuzz.txt")"
    fuzz_pid=
  fi
  if [ -f "$logs/test-output-$suite-unit.txt" ]; then
    tests/dist/run.sh --log-dir "$logs" --only kernel "$suite" || status=1
    tt_lap "kernel (${dist_name[$suite]})"
  fi
done
if [ -n "${fuzz_pid:-}" ]; then
  finish_bg "$fuzz_pid" "$sanitize_build/test-output-fuzz.txt" || status=1
  tt_lap "wait for the fuzzer"
  tt_add "fuzzer (background)" "$(bg_time "$sanitize_build/test-output-fuzz.txt")"
fi
kernel_cols=()
for suite in "${dist_suites[@]}"; do
  for tier in unit selftest kernel; do
    log=$build-$suite/test-output-$suite-$tier.txt
    if [ -f "$log" ] && grep -q '^Ok:' "$log"; then
      outputs+=("$log")
    else
      echo "test.sh: the $suite $tier tier did not run (no summary in $log)" >&2
      build_failures=$((build_failures + 1))
      status=1
    fi
  done
  kernel_cols+=("$suite=$build-$suite/test-output-$suite-kernel.txt")
done

# Totals from meson's summaries, over every run.
count () {
  local f n total=0
  for f in "${outputs[@]}"; do
    n=$(awk -v key="$1" -F: '$1 == key { gsub(/ /, "", $2); n = $2 } END { print n + 0 }' "$f")
    total=$((total + n))
  done
  echo "$total"
}
ok=$(count "Ok")
xfail=$(count "Expected Fail")
fail=$(count "Fail")
xpass=$(count "Unexpected Pass")
skipped=$(count "Skipped")
timeout=$(count "Timeout")
passed=$((ok + xfail))
# A skipped test is not a passed one: the tiers must all run.  A build
# that failed counts as a failure too.
failed=$((fail + xpass + timeout + skipped + build_failures))

if [ "$skipped" -gt 0 ]; then
  echo "test.sh: $skipped test(s) skipped; every tier must run" >&2
  status=1
fi
if [ "$passed" -eq 0 ]; then
  echo "test.sh: no test ran" >&2
  status=1
fi

# The tests that failed, by name, next to the totals: a CI log is often
# read from its end.  meson's result lines (once each: meson repeats a
# failure in its summary) and the package test's TAP.
# A grep that finds nothing is no error here: under pipefail it would end
# the script before the totals line.
failed_tests () {
  { grep -hE '^ *[0-9]+/[0-9]+ .* (FAIL|ERROR|TIMEOUT|SKIP|UNEXPECTEDPASS) ' "${outputs[@]}" 2>/dev/null || true; } |
    awk '{ print "  " $4 " " $5 }' | awk '!seen[$0]++'
  { grep -h '^not ok ' "${outputs[@]}" 2>/dev/null || true; } | sed 's/^/  /'
}
# shellcheck source=/dev/null
tt_print "$(. /etc/os-release && echo "${VERSION_CODENAME:-host}")=$kernel_log" "${kernel_cols[@]}"
if [ "$failed" -gt 0 ]; then
  echo "failed:"
  failed_tests
fi
echo "$passed passed, $failed failed"
exit "$status"
