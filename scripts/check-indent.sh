#!/bin/sh
# Fails, listing the files and the diff, when a C source of the project is
# not formatted as scripts/gst-indent formats it.  Sources only, as
# GStreamer's own indent check: GNU indent mangles headers (G_BEGIN_DECLS
# run into the next line, declarations indented five spaces).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
for f in $(cd "$top" && find gst tests examples bench -name '*.c' 2>/dev/null | sort); do
  mkdir -p "$tmp/$(dirname "$f")"
  cp "$top/$f" "$tmp/$f"
  "$top/scripts/gst-indent" "$tmp/$f"
  if ! cmp -s "$top/$f" "$tmp/$f"; then
    echo "not gst-indent formatted: $f (run scripts/gst-indent $f)"
    diff -u "$top/$f" "$tmp/$f" | head -40 || true
    status=1
  fi
done
exit $status
