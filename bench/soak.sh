#!/bin/bash
# Soak: fgrabsink and fgrabsrc on v4l2loopback for a long time (default 30
# minutes) in the kernel tier's VM, RSS and open fds sampled every 10 s.
#
#   bench/soak.sh [--build-dir DIR] [--out DIR] [SECONDS]
#
# Writes soak.csv and the logs to the output directory (default
# <build>/soak) and prints the growth of RSS and fds; docs/reliability.md
# has the figures of the last run. Not part of the test suite.
set -euo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)
build=$top/build
out=""
while [ $# -gt 0 ]; do
	case $1 in
	--build-dir) build=$(readlink -f "$2"); shift 2 ;;
	--out) out=$2; shift 2 ;;
	*) break ;;
	esac
done
seconds=${1:-1800}
out=${out:-$build/soak}
FGRAB_BUILD_DIR=$build "$top/tests/kernel/vm.sh" run --out "$out" \
	--timeout $((seconds + 300)) "$top/bench/guest-soak.sh" "$seconds"
