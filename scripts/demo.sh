#!/bin/bash
# fgrab quick start: installs what is missing (Debian, as root), builds the plugin in
# build/, then runs both elements:
#
#   capture: about 3 seconds through fgrabsrc
#   - from a real V4L2 capture node of this machine that supports read(), if there
#     is one (v4l2-ctl --info lists Read/Write in its device caps);
#   - otherwise from vivid, the kernel's virtual video driver, inside a small qemu
#     VM that boots Debian's kernel (tests/kernel/vm.sh).
#   output: a moving test pattern written through fgrabsink into a v4l2loopback
#   node (this machine's, if it has one, else the VM's) and read back from it with
#   fgrabsrc at the same time; every frame read back is checked against the frames
#   sent (md5, order; skipped frames are counted).
#
# Results go to demo-output/ in the working tree: capture.avi (JPEG in AVI) and
# snapshot.png for raw video, capture.mpg for an MPEG stream device, readback.png
# (a frame that went through fgrabsink and came back through fgrabsrc). It prints
# the caps fgrabsrc negotiated, the frame rate the driver programmed and the
# outcome of the round trip.
#
#   scripts/demo.sh [--vm] [--device /dev/videoN] [--seconds S] [--build-dir DIR]
#                   [--out DIR]
#     --vm         use the VM even if this machine has a capture node
#     --device     use this node on this machine
#     --seconds    how long the capture runs (default 3)
#     --build-dir  the meson build to use, set up if missing (default build)
#     --out        where the results go (default demo-output)
set -euo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)
build=$top/build
outdir=$top/demo-output
seconds=3
# shellcheck source=scripts/lib/packages.sh
. "$top/scripts/lib/packages.sh"

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
	if [ "${1:-}" != sink-only ]; then
		say "capture from vivid $dev in the VM"
		capture_job "$dev" "$FGRAB_OUT/demo"
	fi
	say "output through fgrabsink into v4l2loopback /dev/video10 in the VM, read back with fgrabsrc"
	sink_job /dev/video10 "$FGRAB_OUT/demo"
}

# ------------------------------------------------------------------ sink job
# fgrabsink writes a moving test pattern (every frame differs) into a
# v4l2loopback node at 30 fps while fgrabsrc reads it back from the same node;
# every frame read back must be one that was sent, byte for byte, in order;
# frames the loopback skipped for a reader that fell behind are counted and
# shown. Runs where the node is.
sink_job() { # LOOPDEV OUTDIR
	local dev=$1 dir=$2 w=320 h=240 n=450 min=30 bytes caps work wpid rpid wst st i k prev first gaps=0
	local -A ref=()
	bytes=$((w * h * 2))
	caps="video/x-raw,format=YUY2,width=$w,height=$h,framerate=30/1"
	work=$dir/sink-work
	rm -rf "$work"
	mkdir -p "$work/ref" "$work/back"
	v4l2-ctl -d "$dev" --info | sed -n '/^Driver Info/,/^[^\t]/s/^\t\(Driver name\|Card type\) *: */  \1: /p'

	# What is sent: the md5 of each frame of the sequence.
	timeout 120 gst-launch-1.0 -q videotestsrc pattern=ball num-buffers=$n ! "$caps" \
		! filesink location="$work/ref.yuv" >"$dir/sink-reference.log" 2>&1 ||
		die "cannot render the reference sequence (see $dir/sink-reference.log)"
	split -b "$bytes" -d -a 4 "$work/ref.yuv" "$work/ref/"
	i=0
	while read -r k _; do
		ref[$k]=$i
		i=$((i + 1))
	done < <(cd "$work/ref" && md5sum -- *)

	echo "  fgrabsink writes $n frames (${w}x$h YUY2, 30 fps, pattern=ball) into $dev"
	GST_DEBUG=fgrabsink:4 GST_DEBUG_NO_COLOR=1 timeout 120 gst-launch-1.0 -e videotestsrc \
		pattern=ball num-buffers=$n is-live=true ! "$caps" ! fgrabsink device="$dev" \
		max-lateness=-1 >"$dir/sink-writer.log" 2>&1 &
	wpid=$!
	for _ in $(seq 1 300); do
		grep -q 'configured video/x-raw' "$dir/sink-writer.log" && break
		kill -0 "$wpid" 2>/dev/null || break
		sleep 0.1
	done
	grep -q 'configured video/x-raw' "$dir/sink-writer.log" || {
		wait "$wpid" || true
		sed 's/^/  | /' "$dir/sink-writer.log" | grep -v ' DEBUG \| INFO ' | tail -n 20
		die "fgrabsink did not configure $dev"
	}
	# v4l2loopback lists a capture format once the writer's first frame is in
	for _ in $(seq 1 300); do
		v4l2-ctl -d "$dev" --list-formats 2>/dev/null | grep -q "'YUYV'" && break
		sleep 0.1
	done

	# The reader runs until the writer is done (then it is ended with EOS): it
	# starts late on a loaded machine, and v4l2loopback has nothing to read once
	# the writer is gone.
	echo "  fgrabsrc reads them back from $dev at the same time"
	timeout 300 gst-launch-1.0 -e -v fgrabsrc device="$dev" \
		! "video/x-raw,format=YUY2,width=$w,height=$h" ! filesink location="$work/back.yuv" \
		>"$dir/sink-reader.log" 2>&1 &
	rpid=$!
	set +e
	wait "$wpid"
	wst=$?
	sleep 2
	kill -INT "$rpid" 2>/dev/null
	wait "$rpid"
	st=$?
	set -e
	[ "$wst" -eq 0 ] || {
		sed 's/^/  | /' "$dir/sink-writer.log" | grep -v ' DEBUG \| INFO ' | tail -n 20
		die "fgrabsink failed writing to $dev (gst-launch exit $wst)"
	}
	if [ "$st" -ne 0 ] || ! grep -q 'Got EOS' "$dir/sink-reader.log"; then
		sed 's/^/  | /' "$dir/sink-reader.log" | tail -n 20
		die "fgrabsrc could not read back from $dev (gst-launch exit $st)"
	fi
	echo "  fgrabsink: $(grep -o '[0-9]* frames written' "$dir/sink-writer.log" | tail -n1)"
	echo "  read-back caps: $(sed -n 's/^\/GstPipeline:pipeline0\/GstFgrabSrc:[^.]*\.GstPad:src: caps = //p' "$dir/sink-reader.log" | head -n1)"

	split -b "$bytes" -d -a 4 "$work/back.yuv" "$work/back/"
	# Every frame read back must be a sent one, in order. A reader that falls
	# behind (a slow or loaded machine) is skipped ahead by v4l2loopback:
	# those gaps are counted and shown, not hidden. The first two frames are
	# not judged: a reader that starts behind the writer may be handed a
	# buffer the writer is overwriting.
	i=0 prev=-1 first=-1
	while read -r k _; do
		i=$((i + 1))
		[ "$i" -gt 2 ] || continue
		[ -n "${ref[$k]:-}" ] || die "read-back frame $i is none of the frames sent"
		k=${ref[$k]}
		[ "$prev" -lt 0 ] || [ "$k" -gt "$prev" ] ||
			die "read-back frame $i is sent frame $k after sent frame $prev (out of order)"
		[ "$prev" -lt 0 ] || gaps=$((gaps + k - prev - 1))
		[ "$first" -ge 0 ] || first=$k
		prev=$k
	done < <(cd "$work/back" && md5sum -- *)
	[ "$i" -ge "$min" ] || die "fgrabsrc read back only $i frames (at least $min expected)"
	[ "$prev" -eq $((n - 1)) ] || die "the last frame read back is sent frame $prev, not the last one ($((n - 1)))"
	echo "  result: frames 3..$i read back are sent frames $first..$prev, each byte-identical to"
	if [ "$gaps" -eq 0 ]; then
		echo "          the frame sent, in order, none lost"
	else
		echo "          the frame sent, in order; $gaps frames skipped where the reader fell behind"
	fi

	gst-launch-1.0 -q filesrc location="$work/back/0000" ! rawvideoparse format=yuy2 \
		width=$w height=$h framerate=30/1 ! videoconvert ! pngenc \
		! filesink location="$dir/readback.png" >"$dir/sink-png.log" 2>&1 ||
		echo "  (could not write readback.png; see $dir/sink-png.log)"
	rm -rf "$work"
}

# ------------------------------------------------------------------ host side
# Elsewhere than on Debian the packages cannot be checked: the build says
# what is missing.
host_packages() {
	local st=0
	install_packages demo.sh "${BASE_PACKAGES[@]}" || st=$?
	[ "$st" -ne 1 ] || die "the packages the demo needs are not all installed (see above)"
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

# A v4l2loopback node of this machine (its driver name is "v4l2 loopback").
find_loopback_node() {
	local d
	command -v v4l2-ctl >/dev/null || return 1
	for d in /dev/video*; do
		[ -c "$d" ] || continue
		if v4l2-ctl -d "$d" --info 2>/dev/null | grep -q 'Driver name *: *v4l2 loopback'; then
			echo "$d"
			return 0
		fi
	done
	return 1
}

host_demo() { # DEVICE
	local loop
	say "capture from $1 on this machine"
	rm -rf "$outdir"
	export GST_PLUGIN_PATH="$build/gst/fgrab${GST_PLUGIN_PATH:+:$GST_PLUGIN_PATH}"
	capture_job "$1" "$outdir"
	if loop=$(find_loopback_node); then
		say "output through fgrabsink into v4l2loopback $loop on this machine, read back with fgrabsrc"
		sink_job "$loop" "$outdir"
	else
		say "no v4l2loopback node here: the fgrabsink part runs in a VM (tests/kernel/vm.sh)"
		vm_run sink-only
	fi
}

# vm_run [sink-only]: the guest part of this script in the VM; its results are
# added to the output directory.
vm_run() {
	local vmout=$build/demo-vm
	"$top/tests/kernel/vm.sh" install
	FGRAB_BUILD_DIR=$build "$top/tests/kernel/vm.sh" run --out "$vmout" --timeout 400 \
		"$top/scripts/demo.sh" --seconds "$seconds" --in-guest "$@"
	mkdir -p "$outdir"
	cp -a "$vmout/demo/." "$outdir/"
}

vm_demo() {
	say "no capture node with read() here: using vivid and v4l2loopback in a VM (tests/kernel/vm.sh)"
	rm -rf "$outdir"
	vm_run
}

report() {
	say "results"
	local f
	for f in "$outdir"/capture.avi "$outdir"/capture.mpg "$outdir"/snapshot.png \
		"$outdir"/readback.png; do
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
			shift
			guest_main "$@"
			return
			;;
		--vm) force_vm=1 ;;
		--device)
			dev=$2
			shift
			;;
		--seconds)
			seconds=$2
			shift
			;;
		--build-dir)
			build=$2
			shift
			;;
		--out)
			outdir=$2
			shift
			;;
		-h | --help)
			sed -n '2,/^set -euo/p' "$0" | sed '$d'
			return
			;;
		*) die "unknown argument $1 (see --help)" ;;
		esac
		shift
	done
	case $seconds in '' | *[!0-9]* | 0) die "--seconds wants a whole number of seconds above 0, not '$seconds'" ;; esac
	build=$(readlink -m "$build")
	outdir=$(readlink -m "$outdir")
	host_packages
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
