#!/usr/bin/env bash
# The Debian package, end to end (scripts/test.sh runs it):
#   1. meson dist --no-tests makes the release tarball (from git HEAD);
#   2. dpkg-buildpackage -us -uc -b builds the .debs from the unpacked
#      tarball, which is also the test that the tarball builds (the unit
#      tier is not rerun inside it: DEB_BUILD_OPTIONS=nocheck, test.sh runs
#      it already);
#   3. lintian over them, failing on warnings and errors;
#   4. a throwaway copy of a cached minimal Debian root of the host's
#      release (tests/pkg/debroot.sh): the packages install, gst-inspect-1.0
#      finds fgrabsrc from the system path only (and not before the
#      install), and apt-get purge leaves the root's file list as it was
#      before the install.
# The root lives in a mount and PID namespace of its own (unshare), so no
# mount outlives the test.  Needs root, network access to the host's Debian
# mirror, debootstrap, dpkg-dev, debhelper, fakeroot and lintian.
#
#   tests/pkg/run.sh [--build-dir DIR] [--cache DIR]
#     --build-dir  a configured build of this tree (default build)
#     --cache      where the base root is kept (default
#                  ${XDG_CACHE_HOME:-~/.cache}/fgrab/debroot)
# Prints TAP, and at the end meson's summary lines (Ok:, Fail:), which
# scripts/test.sh adds to its totals.
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
build=$top/build
cache=${XDG_CACHE_HOME:-$HOME/.cache}/fgrab/debroot
while [ $# -gt 0 ]; do
  case $1 in
    --build-dir) build=$(cd "$2" && pwd); shift 2 ;;
    --cache) cache=$2; shift 2 ;;
    *) echo "run.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done

n=0 ok=0 fail=0
result () {
  n=$((n + 1))
  if [ "$1" = 0 ]; then ok=$((ok + 1)); echo "ok $n - $2"
  else fail=$((fail + 1)); echo "not ok $n - $2"; fi
}
finish () {
  echo "1..$n"
  echo "Ok: $ok"
  echo "Fail: $fail"
  [ "$fail" = 0 ]
  exit
}
step () { echo "# $(date -u +%T) $*"; }

work=$(mktemp -d "${TMPDIR:-/tmp}/fgrab-pkg.XXXXXX")
trap 'rm -rf "$work"' EXIT

step "meson dist"
if ! git -C "$top" diff --quiet HEAD 2>/dev/null; then
  echo "# the tree has uncommitted changes: the tarball is of HEAD without them"
fi
rm -rf "$build/meson-dist"
set +e
meson dist -C "$build" --no-tests --allow-dirty --formats xztar >"$work/dist.log" 2>&1
st=$?
set -e
tarball=$(ls "$build"/meson-dist/*.tar.xz 2>/dev/null | head -n 1 || true)
[ "$st" = 0 ] && [ -n "$tarball" ] || { sed 's/^/# /' "$work/dist.log"; st=1; }
result "$st" "meson dist --no-tests makes a tarball"
[ "$st" = 0 ] || finish

step "dpkg-buildpackage"
mkdir "$work/src"
tar -C "$work/src" -xf "$tarball"
srcdir=$(echo "$work"/src/*/)
set +e
(cd "$srcdir" && DEB_BUILD_OPTIONS=nocheck dpkg-buildpackage -us -uc -b -Pnocheck) \
  >"$work/build.log" 2>&1
st=$?
set -e
[ "$st" = 0 ] || tail -n 40 "$work/build.log" | sed 's/^/# /'
result "$st" "dpkg-buildpackage -us -uc -b of the dist tarball"
[ "$st" = 0 ] || finish
debs=("$work"/src/gstreamer1.0-fgrab_*.deb "$work"/src/libfgrab-fakev4l2-dev_*.deb)
for d in "${debs[@]}"; do echo "# built $(basename "$d")"; done

step "lintian"
set +e
lintian --pedantic --fail-on error,warning "$work"/src/*.changes >"$work/lintian.log" 2>&1
st=$?
set -e
sed 's/^/# lintian: /' "$work/lintian.log"
result "$st" "lintian --pedantic: no warning or error (overrides in debian/ say why)"

step "base root"
if ! base=$("$top/tests/pkg/debroot.sh" "$cache"); then
  result 1 "a minimal Debian root of the host's release"
  finish
fi
root=$work/root
mkdir "$root"
tar -C "$root" -xf "$base"
cp /etc/resolv.conf "$root/etc/resolv.conf"
mkdir "$root/pkgtest"
cp "${debs[@]}" "$root/pkgtest/"
# The steps inside the root; each one's outcome as a line "RESULT st name".
cat >"$root/pkgtest/in-root.sh" <<'INROOT'
set -u
export DEBIAN_FRONTEND=noninteractive LC_ALL=C.UTF-8
unset GST_PLUGIN_PATH GST_PLUGIN_PATH_1_0 GST_PLUGIN_SYSTEM_PATH GST_PLUGIN_SYSTEM_PATH_1_0 GST_REGISTRY GST_REGISTRY_1_0 LD_PRELOAD
pkgs="gstreamer1.0-fgrab libfgrab-fakev4l2-dev"
# what the root has, less what changes by running anything in it
listing () {
  find / -xdev \( -path /proc -o -path /dev -o -path /sys -o -path /tmp -o \
    -path /var/log -o -path /var/cache -o -path /var/lib/apt -o -path /root/.cache -o \
    -path /pkgtest \) -prune -o -print | sort
}
# the dependencies (and gst-inspect-1.0) from the mirror, with ours
apt-get update -q >/tmp/apt.log 2>&1 &&
  apt-get install -y -q --no-install-recommends gstreamer1.0-tools /pkgtest/*.deb >>/tmp/apt.log 2>&1
st=$?; [ $st = 0 ] || tail -n 20 /tmp/apt.log
echo "RESULT $st the packages and their dependencies install"
[ $st = 0 ] || exit 0
dpkg --purge $pkgs >/dev/null
gst-inspect-1.0 fgrabsrc >/dev/null 2>&1
st=$?
echo "RESULT $([ $st != 0 ]; echo $?) without the package gst-inspect-1.0 does not find fgrabsrc"
listing >/tmp/before
dpkg -i /pkgtest/*.deb >/tmp/dpkg.log 2>&1
st=$?; [ $st = 0 ] || cat /tmp/dpkg.log
echo "RESULT $st dpkg -i of the packages, their dependencies present"
gst-inspect-1.0 fgrabsrc >/tmp/inspect 2>&1
st=$?
grep -E "^  (Filename|Version|Binary package|Origin URL)" /tmp/inspect || cat /tmp/inspect
echo "RESULT $st gst-inspect-1.0 fgrabsrc finds the plugin in the system path"
# (/lib/... on a merged-/usr system)
grep -q "^  Filename .*/lib/.*/gstreamer-1.0/libgstfgrab.so" /tmp/inspect &&
  grep -q "^  Binary package *fgrab .*(Debian)" /tmp/inspect
echo "RESULT $? the plugin is the package's file, named after the package (package-name)"
pkg-config --variable=preload fgrab-fakev4l2 >/tmp/preload 2>&1 && test -f "$(cat /tmp/preload)"
st=$?; cat /tmp/preload
echo "RESULT $st fgrab-fakev4l2.pc's preload variable names the installed library"
dpkg -L $pkgs | grep -vx /. | sort -u >/tmp/files
apt-get purge -y -q $pkgs >/tmp/purge.log 2>&1
st=$?; [ $st = 0 ] || cat /tmp/purge.log
echo "RESULT $st apt-get purge of the packages"
listing >/tmp/after
left=$(while read -r f; do [ -e "$f" ] && ! grep -qx -- "$f" /tmp/before && echo "$f"; done </tmp/files)
diff /tmp/before /tmp/after
st=$?
[ -z "$left" ] || { echo "left behind: $left"; st=1; }
echo "RESULT $st after the purge the root's files are those before the install ($(wc -l </tmp/files) package paths checked)"
INROOT
step "install test in a throwaway root"
unshare --mount --pid --fork --mount-proc="$root/proc" \
  chroot "$root" /bin/bash /pkgtest/in-root.sh >"$work/root.log" 2>&1 || true
while IFS= read -r line; do
  case $line in
    "RESULT "*) set -- $line; st=$2; shift 2; result "$st" "$*" ;;
    *) echo "# $line" ;;
  esac
done <"$work/root.log"
step "done"
finish
