#!/usr/bin/env bash
# The test setup's own test, in one meson test setup: the suite
# "selftest" (check-fgrabselftest with the project's check helpers, and
# check-fgrabselfteststock with the stock gst-check API alone, as a
# user's test is written: in each, two tests that fail on purpose while
# fgrabsrc streams, then one that streams again) must end within a
# minute, its log must name each failed test with its message as it
# happened, the test after them must pass, and each program must end
# with check's own status (2 failures), not a checker's (valgrind 99,
# ASan 98, UBSan 97) or a signal.  Prints meson-style result and summary
# lines, which scripts/test.sh counts with the others.
#
#   tests/check/selftest.sh BUILD-DIR [SETUP]
set -uo pipefail

build=${1:?usage: tests/check/selftest.sh BUILD-DIR [SETUP]}
setup=${2:-}
name=check-selftest${setup:+-$setup}
logbase=selftest
log=$build/meson-logs/$logbase${setup:+-$setup}.txt
limit=60
problems=()

t0=$SECONDS
meson test -C "$build" ${setup:+--setup "$setup"} --suite selftest \
  --logbase "$logbase" >"${log%.txt}-console.txt" 2>&1
dt=$((SECONDS - t0))

expect() { # PATTERN WHAT: the log has PATTERN, or WHAT is a problem
  grep -qE -- "$1" "$log" || problems+=("$2")
}
if [ ! -f "$log" ]; then
  problems+=("meson wrote no log ($log)")
else
  [ "$dt" -le "$limit" ] || problems+=("the suite took ${dt} s, over ${limit} s")
  n=$(grep -cE '^result: +exit status 2$' "$log")
  [ "$n" = 2 ] || problems+=("$n of the 2 programs ended with check's 2 failures")
  expect ':F:general:test_deliberate_failure_in_a_streaming_harness:0: deliberate failure, fgrabsrc streaming in a harness' \
    "the harness test's failure and message are not in the log"
  expect ':F:general:test_deliberate_failure_in_a_playing_pipeline:0: deliberate failure, fgrabsrc playing in a pipeline' \
    "the pipeline test's failure and message are not in the log"
  expect ':P:general:test_the_device_streams_again_after_the_failures:0: Passed' \
    "the test after the failures did not pass"
  expect ':F:general:test_stock_failure_in_a_streaming_harness:0: deliberate failure, fgrabsrc streaming in a stock harness' \
    "the stock harness test's failure and message are not in the log"
  expect ':F:general:test_stock_failure_in_a_playing_pipeline:0: deliberate failure, fgrabsrc playing in a stock pipeline' \
    "the stock pipeline test's failure and message are not in the log"
  expect ':P:general:test_stock_device_streams_again_after_the_failures:0: Passed' \
    "the stock test after the failures did not pass"
  if [ -n "$setup" ]; then
    # without fork: named by the fake as it failed, before check's log
    expect '^fakev4l2: test_stock_failure_in_a_streaming_harness failed at .*: deliberate failure' \
      "the fake did not name the stock harness test's failure as it happened"
    expect '^fakev4l2: test_stock_failure_in_a_playing_pipeline did not end: stopped and freed' \
      "the fake did not release what the stock pipeline test left"
  fi
fi

if [ "${#problems[@]}" -eq 0 ]; then
  echo " 1/1 fgrab:selftest / $name OK ${dt}s"
  printf 'Ok: 1\nFail: 0\n'
  exit 0
fi
echo "selftest: the test setup ${setup:-(normal)} did not fail fast and loud:"
printf '  %s\n' "${problems[@]}"
echo "selftest: its log ($log):"
sed 's/^/  | /' "$log" 2>/dev/null | tail -n 60
echo " 1/1 fgrab:selftest / $name FAIL ${dt}s"
printf 'Ok: 0\nFail: 1\n'
exit 1
