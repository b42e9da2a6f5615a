#!/usr/bin/env bash
# A cached minimal Debian root of the host's own release, for the package
# test (tests/pkg/run.sh).  Kept apart so that it can be unified with other
# roots the project builds.
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

# The first http(s) URI of a source of the release's main suite, from the
# deb822 .sources files or the one-line sources.list format.
mirror=$(
  {
    for f in /etc/apt/sources.list.d/*.sources; do
      [ -f "$f" ] || continue
      awk -v cn="$codename" '
        /^[ \t]*$/ { if (s && u) print u; s = 0; u = ""; next }
        $1 == "URIs:" { u = $2 }
        $1 == "Suites:" { for (i = 2; i <= NF; i++) if ($i == cn) s = 1 }
        END { if (s && u) print u }' "$f"
    done
    cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null |
      awk -v cn="$codename" '$1 == "deb" { i = 2; if ($2 ~ /^\[/) while ($i !~ /\]$/) i++; if ($2 ~ /^\[/) i++; if ($(i + 1) == cn) print $i }'
  } | awk '/^https?:\/\// && !n++'
) || true
if [ -z "$mirror" ]; then
  echo "debroot.sh: no apt source for $codename found in /etc/apt" >&2
  exit 1
fi

mkdir -p "$cache"
work=$(mktemp -d "$cache/debootstrap.XXXXXX")
trap 'rm -rf "$work"' EXIT
echo "debroot.sh: debootstrap --variant=minbase $codename from $mirror" >&2
debootstrap --variant=minbase "$codename" "$work/root" "$mirror" >"$work/log" 2>&1 ||
  { cat "$work/log" >&2; exit 1; }
rm -rf "$work/root/var/cache/apt/archives/"*.deb
tar -C "$work/root" -cf "$tarball.tmp" .
mv "$tarball.tmp" "$tarball"
echo "$tarball"
