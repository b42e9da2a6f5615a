#!/bin/bash
# Stock v4l2src (io-mode=rw and mmap) through src-live.sh's steps on
# vivid (live-lib.sh): the signal lost and back on S-Video, PAL to NTSC on
# the wire, HDMI 720p60 to 1080p30 then no signal, no lock and back, a
# control set with v4l2-ctl.  What it did is printed for the table of
# docs/guide.md ("Live inputs"), not judged: this group is not in the
# kernel suite CI runs (meson suite kernel-compare).
#@vivid: n_devs=1 node_types=0x1
#@v4l2loopback: none
# shellcheck source=../lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
# shellcheck source=../live-lib.sh
source "$KT_DIR/live-lib.sh"
require_element v4l2src

summary() { # FILE: what v4l2src did
	info "$(basename "$1" .txt): caps $(grep -c '^caps' "$1"), warnings" \
		"$(grep -c '^warning' "$1"), infos $(grep -c '^info' "$1"), errors" \
		"$(grep -c '^error' "$1"), notify $(grep -c '^notify' "$1"), frames" \
		"$(grep -c '^frame' "$1")"
	grep -E '^(caps|warning|info|error|notify)' "$1" | sed 's/^/      /' || true
}

for io in rw mmap; do
	section "v4l2src io-mode=$io"
	run_loss loss-$io "v4l2src name=src device=$DEV io-mode=$io"
	summary "$KT_LOGS/loss-$io.txt"
	run_std_change std-$io "v4l2src name=src device=$DEV io-mode=$io"
	summary "$KT_LOGS/std-$io.txt"
	run_hdmi hdmi-$io "v4l2src name=src device=$DEV io-mode=$io"
	summary "$KT_LOGS/hdmi-$io.txt"
done
kt_finish
