#!/usr/bin/env bash
# Installs what is missing (Debian, as root), configures, builds and runs
# every test tier: unit (fake device), kernel (vivid and v4l2loopback in a
# qemu VM) and peers (FFmpeg, v4l2-ctl; they run inside the kernel tier's
# VM).  Ends with meson's totals on one line: "N passed, N failed".
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
build=${FGRAB_BUILD_DIR:-build}

packages=(meson ninja-build pkg-config gcc libc6-dev linux-libc-dev
  libglib2.0-dev libgstreamer1.0-dev libgstreamer-plugins-base1.0-dev
  gstreamer1.0-tools gstreamer1.0-plugins-base gstreamer1.0-plugins-good
  indent)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" \
    || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "test.sh: installing ${missing[*]}"
  if [ "$(id -u)" != 0 ]; then
    echo "test.sh: missing packages and not root: install them first" >&2
    exit 1
  fi
  apt-get update -q
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
    "${missing[@]}"
fi

# The kernel tier brings its own packages (qemu, the Debian kernel,
# v4l2loopback, ffmpeg, v4l-utils) and fails loudly if it cannot.
if [ -x tests/kernel/vm.sh ]; then
  tests/kernel/vm.sh install
fi

if [ -d "$build" ]; then
  meson setup --reconfigure "$build" -Dtests=enabled -Dkernel-tests=enabled
else
  meson setup "$build" -Dtests=enabled -Dkernel-tests=enabled
fi
ninja -C "$build"

set +e
meson test -C "$build" --print-errorlogs --num-processes 2 2>&1 | tee "$build/test-output.txt"
status=${PIPESTATUS[0]}
set -e

# Totals from meson's summary.
count () {
  awk -v key="$1" -F: '$1 == key { gsub(/ /, "", $2); n = $2 } END { print n + 0 }' \
    "$build/test-output.txt"
}
ok=$(count "Ok")
xfail=$(count "Expected Fail")
fail=$(count "Fail")
xpass=$(count "Unexpected Pass")
skipped=$(count "Skipped")
timeout=$(count "Timeout")
passed=$((ok + xfail))
failed=$((fail + xpass + timeout))

# A skipped test is not a passed one: the tiers must all run.
if [ "$skipped" -gt 0 ]; then
  echo "test.sh: $skipped test(s) skipped; every tier must run" >&2
  status=1
fi
if [ "$passed" -eq 0 ]; then
  echo "test.sh: no test ran" >&2
  status=1
fi

echo "$passed passed, $failed failed"
exit "$status"
