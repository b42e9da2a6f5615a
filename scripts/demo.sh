#!/bin/bash
# fgrab quick start: installs what is missing (Debian, as root), builds the plugin in
# build/, and captures about 3 seconds through fgrabsrc:
#
#   - from a real V4L2 capture node of this machine that supports read(), if there
#     is one (v4l2-ctl --info lists Read/Write in its device caps);
#   - otherwise from vivid, the kernel's virtual video driver, inside a small qemu
#     VM that boots Debian's kernel (tests/kernel/vm.sh).
#
# Results go to demo-output/ in the working tree: capture.avi (JPEG in AVI) and
# snapshot.png for raw video, capture.mpg for an MPEG stream device. It prints the
# caps fgrabsrc negotiated and the frame rate the driver programmed.
#
#   scripts/demo.sh [--vm] [--device /dev/videoN]
#     --vm        use the VM even if this machine has a capture node
#     --device    use this node on this machine
# Environment: FGRAB_DEMO_SECONDS (default 3), FGRAB_BUILD_DIR (default build),
# FGRAB_DEMO_OUT (default demo-output).
set -euo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)
build=$(readlink -f "${FGRAB_BUILD_DIR:-$top/build}")
outdir=${FGRAB_DEMO_OUT:-$top/demo-output}
seconds=${FGRAB_DEMO_SECONDS:-3}

say() { printf '\n== %s\n' "$*"; }
die() {
	printf 'demo.sh: ERROR: %s\n' "$*" >&2
	exit 1
}

BASE_PACKAGES=(meson ninja-build pkg-config gcc libgstreamer1.0-dev
	libgstreamer-plugins-base1.0-dev gstreamer1.0-tools gstreamer1.0-plugins-base
	gstreamer1.0-plugins-good v4l-utils)

# ------------------------------------------------------------------ capture job
# Runs where the device is: on this machine, or inside the VM (then the output
# directory is the VM's writable share). Prints the caps and the driver's rate.
capture_job() { # DEVICE OUTDIR
	local dev=$1 dir=$2 caps rate n media log
	mkdir -p "$dir"
	log=$dir/snapshot.log
	v4l2-ctl -d "$dev" --info | sed -n '/^Driver Info/,/^[^\t]/s/^\t\(Driver name\|Card type\) *: */  \1: /p'

	# One frame first: it shows what the device negotiates.
	set +e
	timeout 60 gst-launch-1.0 -v fgrabsrc device="$dev" num-buffers=1 ! video/x-raw \
		! videoconvert ! pngenc ! filesink location="$dir/snapshot.png" >"$log" 2>&1
	local st=$?
	set -e
	caps=$(sed -n 's/^\/GstPipeline:pipeline0\/GstFgrabSrc:[^.]*\.GstPad:src: caps = //p' "$log" | head -n1)
	if [ "$st" -ne 0 ]; then
		# Not raw video? MPEG encoder cards (ivtv, cx18, pvrusb2) give video/mpeg.
		set +e
		timeout 60 gst-launch-1.0 -v fgrabsrc device="$dev" num-buffers=1 ! fakesink >"$dir/probe.log" 2>&1
		set -e
		caps=$(sed -n 's/^\/GstPipeline:pipeline0\/GstFgrabSrc:[^.]*\.GstPad:src: caps = //p' "$dir/probe.log" | head -n1)
		rm -f "$dir/snapshot.png"
		case $caps in
		video/mpeg*) media=mpeg ;;
		*)
			sed 's/^/  | /' "$log" | tail -n 20
			die "fgrabsrc could not capture from $dev"
			;;
		esac
	else
		media=raw
	fi
	echo "  negotiated caps: $caps"

	rate=$(printf '%s\n' "$caps" | sed -n 's/.*framerate=(fraction)\([0-9]*\)\/\([0-9]*\).*/\1 \2/p')
	if [ -n "$rate" ] && [ "${rate%% *}" -gt 0 ]; then
		# frames for the wanted seconds at the negotiated rate, rounded up
		n=$(((${rate%% *} * seconds + ${rate##* } - 1) / ${rate##* }))
	else
		n=$((25 * seconds))
	fi

	set +e
	if [ "$media" = raw ]; then
		echo "  capturing $n frames (about ${seconds} s) to capture.avi"
		timeout 300 gst-launch-1.0 -v fgrabsrc device="$dev" num-buffers="$n" ! video/x-raw \
			! videoconvert ! jpegenc ! avimux ! filesink location="$dir/capture.avi" >"$dir/capture.log" 2>&1
	else
		echo "  capturing $((seconds * 1000000)) bytes of MPEG stream to capture.mpg"
		timeout 300 gst-launch-1.0 -v fgrabsrc device="$dev" num-buffers=$((seconds * 100)) \
			! filesink location="$dir/capture.mpg" >"$dir/capture.log" 2>&1
	fi
	st=$?
	set -e
	if [ "$st" -ne 0 ]; then
		sed 's/^/  | /' "$dir/capture.log" | tail -n 20
		die "capture from $dev failed (gst-launch exit $st)"
	fi
	caps=$(sed -n 's/^\/GstPipeline:pipeline0\/GstFgrabSrc:[^.]*\.GstPad:src: caps = //p' "$dir/capture.log" | head -n1)
	echo "  capture caps:    $caps"
	echo "  driver's streaming parameters now (v4l2-ctl --get-parm):"
	v4l2-ctl -d "$dev" --get-parm | sed 's/^/    /'
	sed -n 's/^\(Execution ended after .*\)/  \1/p' "$dir/capture.log"
}

# Inside the VM (started by vm_demo below): vivid's webcam input with a moving
# pattern, then the capture job into the writable share.
guest_main() {
	local dev=/dev/video0
	v4l2-ctl -d "$dev" -i 0 >/dev/null
	v4l2-ctl -d "$dev" -c horizontal_movement=5 >/dev/null
	v4l2-ctl -d "$dev" --set-fmt-video=width=640,height=360,pixelformat=YUYV
	v4l2-ctl -d "$dev" --set-parm=25 >/dev/null
	say "capture from vivid $dev in the VM"
	capture_job "$dev" "$FGRAB_OUT/demo"
	demo_sink_roundtrip
}

# ------------------------------------------------------ fgrabsink (placeholder)
# FGRABSINK DEMO GOES HERE: write a test pattern through fgrabsink into
# v4l2loopback (/dev/video10 in the VM) and read it back with fgrabsrc, comparing
# the frames. fgrabsink is not part of this demo yet, so nothing is done or claimed.
demo_sink_roundtrip() {
	echo
	echo "  (fgrabsink round trip through v4l2loopback: not part of the demo yet)"
}

# ------------------------------------------------------------------ host side
install_packages() {
	local missing=() p
	if ! command -v dpkg-query >/dev/null; then
		echo "demo.sh: not a Debian system; make sure these are installed: ${BASE_PACKAGES[*]}"
		return 0
	fi
	for p in "${BASE_PACKAGES[@]}"; do
		[ "$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)" = installed ] || missing+=("$p")
	done
	[ "${#missing[@]}" -gt 0 ] || return 0
	[ "$(id -u)" -eq 0 ] || die "missing packages ${missing[*]}: run demo.sh as root (or install them)"
	say "installing ${missing[*]}"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update
	apt-get install -y --no-install-recommends "${missing[@]}"
}

build_plugin() {
	say "building in $build"
	cd "$top"
	if [ ! -f "$build/build.ninja" ]; then
		meson setup "$build"
	fi
	meson compile -C "$build"
	[ -n "$(find "$build/gst/fgrab" -maxdepth 1 -name '*.so' 2>/dev/null)" ] ||
		die "the build produced no plugin in $build/gst/fgrab"
}

# A capture node of this machine with read(): "Video Capture" and "Read/Write" in
# its device caps (the node's own caps, not the whole device's).
find_read_capture_node() {
	local d
	command -v v4l2-ctl >/dev/null || return 1
	for d in /dev/video*; do
		[ -c "$d" ] || continue
		if v4l2-ctl -d "$d" --info 2>/dev/null | awk '
			/^\tDevice Caps/ { in_dc = 1; next }
			in_dc && /^\t\t/ { if ($0 ~ /Video Capture$/) cap = 1; if ($0 ~ /Read\/Write/) rw = 1; next }
			in_dc { in_dc = 0 }
			END { exit !(cap && rw) }'; then
			echo "$d"
			return 0
		fi
	done
	return 1
}

host_demo() { # DEVICE
	say "capture from $1 on this machine"
	rm -rf "$outdir"
	GST_PLUGIN_PATH="$build/gst/fgrab${GST_PLUGIN_PATH:+:$GST_PLUGIN_PATH}" capture_job "$1" "$outdir"
	demo_sink_roundtrip
}

vm_demo() {
	say "no capture node with read() here: using vivid in a VM (tests/kernel/vm.sh)"
	"$top/tests/kernel/vm.sh" install
	local vmout=$build/demo-vm
	FGRAB_BUILD_DIR=$build "$top/tests/kernel/vm.sh" run --out "$vmout" --timeout 400 \
		"$top/scripts/demo.sh" --in-guest
	rm -rf "$outdir"
	mkdir -p "$outdir"
	cp -a "$vmout/demo/." "$outdir/"
}

report() {
	say "results"
	local f
	for f in "$outdir"/capture.avi "$outdir"/capture.mpg "$outdir"/snapshot.png; do
		[ -f "$f" ] || continue
		printf '  %s (%s bytes)\n' "$f" "$(stat -c %s "$f")"
	done
	echo "  logs: $outdir/*.log"
}

main() {
	local force_vm=0 dev=""
	while [ $# -gt 0 ]; do
		case $1 in
		--in-guest)
			guest_main
			return
			;;
		--vm) force_vm=1 ;;
		--device)
			dev=$2
			shift
			;;
		*) die "unknown argument $1 (use --vm or --device /dev/videoN)" ;;
		esac
		shift
	done
	install_packages
	build_plugin
	if [ -z "$dev" ] && [ "$force_vm" -eq 0 ]; then
		dev=$(find_read_capture_node || true)
	fi
	if [ -n "$dev" ]; then
		host_demo "$dev"
	else
		vm_demo
	fi
	report
}

main "$@"
