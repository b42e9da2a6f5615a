#!/usr/bin/env bash
# A cached minimal Debian root of the host's own release, for the package
# test (tests/pkg/run.sh).  The debootstrap code is shared with the other
# distribution tier's root (scripts/lib/debroot.sh).
#
#   tests/pkg/debroot.sh CACHE_DIR
#       Prints the path of CACHE_DIR/<codename>-minbase.tar, made with
#       debootstrap --variant=minbase the first time (about a minute) from
#       the mirror the host's apt uses, read from /etc/apt at run time, and
#       reused after that.  Needs root and debootstrap.
set -euo pipefail

cache=${1:?usage: debroot.sh CACHE_DIR}
. /etc/os-release
codename=${VERSION_CODENAME:?/etc/os-release has no VERSION_CODENAME}
tarball=$cache/$codename-minbase.tar
if [ -s "$tarball" ]; then
  echo "$tarball"
  exit 0
fi

# shellcheck source=scripts/lib/debroot.sh
. "$(dirname "$0")/../../scripts/lib/debroot.sh"
mkdir -p "$cache"
work=$(mktemp -d "$cache/debootstrap.XXXXXX")
trap 'rm -rf "$work"' EXIT
debootstrap_root "$codename" "$work/root" "$work/log" || exit 1
rm -rf "$work/root/var/cache/apt/archives/"*.deb
tar -C "$work/root" -cf "$tarball.tmp" .
mv "$tarball.tmp" "$tarball"
echo "$tarball"
