#!/bin/sh
# fgrab
# Copyright (C) 2026 The fgrab authors
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# docs/testing-with-fakedev.md, followed for an installed fake: installs
# the "fakedev" and "devel" tags of this build (library, header, .pc file)
# into a scratch DESTDIR, builds examples/user-test.c there with the
# documented pkg-config flags and runs it with the documented LD_PRELOAD.
# The DESTDIR is the only difference: pkg-config is told the prefix is
# inside it.
#
#   installed-user-test.sh BUILD_DIR SOURCE_DIR CC...
set -eu
build=$1 src=$2
shift 2
work=$(mktemp -d "$build/installed-user-test.XXXXXX")
trap 'rm -rf "$work"' EXIT
dest=$work/destdir

meson install -C "$build" --no-rebuild --quiet --tags fakedev,devel --destdir "$dest"
pcfile=$(find "$dest" -name fgrab-fakev4l2.pc | head -n1)
[ -n "$pcfile" ] || { echo "not ok 1 - fgrab-fakev4l2.pc was not installed"; exit 1; }
echo "# installed: $(cd "$dest" && find . -type f | sort | tr '\n' ' ')"
PKG_CONFIG_PATH="$(dirname "$pcfile")${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
export PKG_CONFIG_PATH
# The documented line is one pkg-config call; here the fake's flags are
# asked for on their own, with its prefix moved into the DESTDIR (which
# must not move GStreamer's).
prefix=$(pkg-config --variable=prefix fgrab-fakev4l2)
fake_flags=$(pkg-config --define-variable=prefix="$dest$prefix" --cflags --libs fgrab-fakev4l2)
# shellcheck disable=SC2046,SC2086 # the flags are words
"$@" "$src/examples/user-test.c" -o "$work/user-test" \
	$fake_flags $(pkg-config --cflags --libs gstreamer-check-1.0)
echo "ok 1 - user-test.c builds with pkg-config fgrab-fakev4l2 gstreamer-check-1.0"

preload=$(pkg-config --define-variable=prefix="$dest$prefix" --variable=preload fgrab-fakev4l2)
[ -f "$preload" ] || { echo "not ok 2 - preload $preload is not the installed library"; exit 1; }
echo "ok 2 - pkg-config --variable=preload names the installed library"
if LD_PRELOAD=$preload "$work/user-test" >"$work/out.txt" 2>&1; then
	sed 's/^/# /' "$work/out.txt"
	echo "ok 3 - user-test passes against the installed fake"
else
	sed 's/^/# /' "$work/out.txt"
	echo "not ok 3 - user-test failed against the installed fake"
	exit 1
fi
echo "1..3"
