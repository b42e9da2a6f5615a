#!/bin/bash
# fgrabsrc frame rates on vivid's webcam input: for several sizes and the rates
# vivid enumerates there, the rate in the negotiated caps must be the rate the
# driver reports (G_PARM from a second handle while fgrabsrc streams), and frames
# must not come faster than that rate. An unconstrained rate must also agree.
#@vivid: n_devs=1 node_types=0x101
#@v4l2loopback: none
# shellcheck source=../lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"

DEV=/dev/video0
require_element fgrabsrc
v4l2-ctl -d $DEV -i 0 >/dev/null || fatal "cannot select vivid input 0"

# The intervals vivid enumerates for a size (as reduced rates), to make sure every
# rate asked below is one the driver offers there.
rates_for() { # W H
	local line r=()
	while IFS= read -r line; do
		[[ $line =~ \(([0-9.]+)\ fps\) ]] || continue
		r+=("${BASH_REMATCH[1]}")
	done < <(v4l2-ctl -d $DEV --list-frameintervals="width=$1,height=$2,pixelformat=YUYV")
	echo "${r[*]}"
}

# rate_check W H RATE N: streams N buffers at RATE; while it runs, G_PARM from a
# second handle must give the caps' rate; N frames must take at least (N-1)/rate.
rate_check() {
	local w=$1 h=$2 rate=$3 n=$4 tag caps want t min
	tag="rate-${w}x$h-${rate/\//_}"
	want=$(frac_reduce "$rate")
	gst_bg "$tag" fgrabsrc name=src device=$DEV num-buffers="$n" \
		! "video/x-raw,format=YUY2,width=$w,height=$h,framerate=$rate" ! fakesink sync=false
	if ! wait_for_log "$KT_LOG" 'GstFgrabSrc:.*src: caps = ' 20; then
		fail "$tag: no caps within 20 s"
		wait_exit "$KT_PID" 5 || true
		show_log "$KT_LOG"
		return 0
	fi
	drv_parm $DEV
	if kill -0 "$KT_PID" 2>/dev/null; then
		info "G_PARM read while fgrabsrc streams"
	else
		info "(fgrabsrc already finished when G_PARM was read)"
	fi
	wait_exit "$KT_PID" 60 || true
	caps=$(src_caps "$KT_LOG")
	expect_eq "$tag: caps framerate" "$(caps_field "$caps" framerate)" "$want"
	expect_eq "$tag: driver's G_PARM rate (second handle) equals the caps" "$DRV_FPS" "$(caps_field "$caps" framerate)"
	expect_eq "$tag: gst-launch exit status" "$KT_RC" 0
	# N frames at RATE need at least (N-1) periods (minus 20% slack for timer
	# granularity); faster means the driver is not running at that rate.
	t=$(log_time "$KT_LOG")
	min=$(((n - 1) * 1000 * ${want#*/} * 8 / (${want%/*} * 10)))
	expect_ge "$tag: $n frames took ${t} ms, not less than the rate allows" "$t" "$min"
}

section "webcam rates per size (YUY2)"
for size in 320x180 640x360 1280x720; do
	w=${size%x*} h=${size#*x}
	info "vivid enumerates for $size: $(rates_for "$w" "$h") fps"
done
# size, rate, buffers (kept small: TCG)
while read -r size rate n; do
	[ -n "$size" ] || continue
	rate_check "${size%x*}" "${size#*x}" "$rate" "$n"
done <<'LIST'
320x180 2/1 4
320x180 5/1 6
320x180 25/2 8
320x180 30/1 15
320x180 60/1 20
640x360 4/1 5
640x360 25/1 12
1280x720 10/1 6
1280x720 1/1 2
LIST

section "unconstrained rate"
gst_bg rate-unconstrained fgrabsrc name=src device=$DEV num-buffers=4 \
	! "video/x-raw,format=YUY2,width=640,height=360" ! fakesink
if wait_for_log "$KT_LOG" 'GstFgrabSrc:.*src: caps = ' 20; then
	drv_parm $DEV
	wait_exit "$KT_PID" 60 || true
	caps=$(src_caps "$KT_LOG")
	info "caps: $caps"
	ur=$(caps_field "$caps" framerate)
	if [ -n "$ur" ] && [ "${ur%/*}" -gt 0 ]; then
		pass "unconstrained: caps carry a real rate ($ur)"
	else
		fail "unconstrained: caps rate '$ur'"
	fi
	expect_eq "unconstrained: driver's G_PARM rate equals the caps" "$DRV_FPS" "$ur"
	expect_eq "unconstrained: gst-launch exit status" "$KT_RC" 0
else
	fail "unconstrained: no caps within 20 s"
	wait_exit "$KT_PID" 5 || true
	show_log "$KT_LOG"
fi

section "rate changes between runs are applied (30/1 then 5/1 then 30/1)"
for rate in 30/1 5/1 30/1; do
	gst "rerate-${rate/\//_}" 30 fgrabsrc name=src device=$DEV num-buffers=2 \
		! "video/x-raw,format=YUY2,width=320,height=180,framerate=$rate" ! fakesink
	drv_parm $DEV
	expect_eq "after a run at $rate the driver keeps $rate" "$DRV_FPS" "$rate"
done

kt_finish
