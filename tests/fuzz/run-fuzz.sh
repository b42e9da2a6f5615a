#!/bin/sh
# Runs the libFuzzer target for meson test (tests/fuzz/meson.build).
#   run-fuzz.sh replay FUZZER DIR...   each file of the DIRs once
#   run-fuzz.sh fuzz FUZZER SECONDS WORKDIR ARTIFACTDIR SEEDDIR
# Exits non-zero on a crash, leak, hang or allocation over the limit.
set -eu

mode=$1
fuzzer=$2
shift 2

# Limits shared by both modes: an input that takes 30 s or allocates more
# than 2 GiB is a finding, not a slow run.
limits="-timeout=30 -rss_limit_mb=2048 -malloc_limit_mb=1024"

case "$mode" in
  replay)
    files=$(find "$@" -type f ! -name '*.md' | sort)
    if [ -z "$files" ]; then
      echo "run-fuzz.sh: no input in $*" >&2
      exit 1
    fi
    n=$(echo "$files" | wc -l)
    echo "replaying $n inputs"
    # shellcheck disable=SC2086
    exec "$fuzzer" $limits $files
    ;;
  fuzz)
    seconds=$1
    work=$2
    artifacts=$3
    seeds=$4
    mkdir -p "$work" "$artifacts"
    # shellcheck disable=SC2086
    exec "$fuzzer" $limits -max_total_time="$seconds" -print_final_stats=1 \
      -artifact_prefix="$artifacts/" "$work" "$seeds"
    ;;
  *)
    echo "run-fuzz.sh: unknown mode $mode" >&2
    exit 2
    ;;
esac
