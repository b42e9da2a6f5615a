#!/bin/bash
# fgrabsink into v4l2loopback (/dev/video10) with FFmpeg reading, and pacing.
# fgrabsink writes a live 30 fps videotestsrc sequence in which every frame
# differs (pattern=ball; checked); the reference md5 of every frame comes from
# the same sequence rendered without a device.
#  - FFmpeg (mmap reader, started after the writer configured the device, as
#    v4l2loopback requires) asks for 40 frames: it must get them, each byte-equal
#    (md5, size) to one of the frames sent;
#  - pacing: 60 frames at 30 fps with sync=true take about 2 s (sanity bounds
#    1-30 s under TCG, not a timing assertion).
# The read() readers (dd, fgrabsrc) are in sink-loopback-read.sh.
#@vivid: none
# v4l2loopback hands an mmap reader the buffer the writer filled, and the
# writer goes round max_buffers buffers (2 by default): a reader that holds
# one longer than a frame (FFmpeg while it starts, under TCG) reads it
# while the next write() overwrites it, a frame that was never sent (seen
# once in 40, the second frame FFmpeg got). 8 buffers give the reader 8
# frame periods, as a consumer of a virtual webcam would configure.
#@v4l2loopback: devices=1 video_nr=10 card_label=loop max_buffers=8
# shellcheck source=../lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"

DEV=/dev/video10
N_FF=600    # at most this many for FFmpeg (20 s: it needs ~6 s to start under TCG)
FF_WANT=40  # frames FFmpeg asks for
W=320 H=240
CAPS="video/x-raw,format=YUY2,width=$W,height=$H,framerate=30/1"
FRAME_BYTES=$((W * H * 2))
PATTERN=ball
export GST_DEBUG_NO_COLOR=1

# shellcheck source=../loopback-sink.sh
source "$(dirname "${BASH_SOURCE[0]}")/../loopback-sink.sh"

require_element fgrabsink
info "v4l2loopback: $(v4l2-ctl -d $DEV --info | grep -m1 'Card type' | tr -s '\t ' ' ')"
[ -x "$KT_PYTHON" ] || fatal "$KT_PYTHON missing"

reference "$N_FF"

section "fgrabsink -> v4l2loopback -> FFmpeg (mmap reader, $FF_WANT frames)"
start_writer ffmpeg $N_FF
ffdir=$(fresh_dir ffmpeg)
ffmpeg -nostdin -hide_banner -loglevel info -f v4l2 -i $DEV -frames:v $FF_WANT -c:v copy \
	-f framemd5 "$ffdir/received.md5" >"$KT_LOGS/ffmpeg-reader.log" 2>&1 &
ff=$!
info "started ffmpeg -f v4l2 -i $DEV -frames:v $FF_WANT -c:v copy -f framemd5 (pid $ff)"
stop_reader "$ff" 40 || fail "ffmpeg: did not end 10 s after SIGINT"
if [ "$READER_INTERRUPTED" -eq 1 ]; then
	fail "ffmpeg: still running after 40 s (it got fewer than $FF_WANT frames)"
	show_log "$KT_LOGS/ffmpeg-reader.log"
else
	expect_eq "ffmpeg: exit status" "$KT_RC" 0
fi
if kill -0 "$WRITER_PID" 2>/dev/null; then
	info "FFmpeg is done; ending the writer with SIGINT (EOS)"
	kill -INT "$WRITER_PID" 2>/dev/null || true
fi
finish_writer ffmpeg
got=() sizes=()
if [ -f "$ffdir/received.md5" ]; then
	while IFS= read -r line; do
		[[ $line == \#* || -z $line ]] && continue
		IFS=', ' read -r -a f <<<"$line"
		sizes+=("${f[4]}")
		got+=("${f[5]}")
	done <"$ffdir/received.md5"
fi
rm -rf "$ffdir"
expect_eq "ffmpeg: frames received" "${#got[@]}" "$FF_WANT"
unknown=0 idxs=() bad_size=0
for i in "${!got[@]}"; do
	k=$(idx_of "${got[$i]}")
	idxs+=("$k")
	[ "${sizes[$i]}" = "$FRAME_BYTES" ] || bad_size=$((bad_size + 1))
	if [ "$k" -lt 0 ]; then
		[ "$unknown" -gt 0 ] || info "first unknown frame: #$i md5 ${got[$i]} (${sizes[$i]} bytes)"
		unknown=$((unknown + 1))
	fi
done
if [ "${#got[@]}" -gt 0 ]; then
	expect_eq "ffmpeg: received frames that are none of the sent frames" "$unknown" 0
	expect_eq "ffmpeg: received frames whose size is not $FRAME_BYTES bytes" "$bad_size" 0
	info "sent-frame indexes FFmpeg received: ${idxs[*]}"
else
	fail "ffmpeg: no frames to compare"
	show_log "$KT_LOGS/ffmpeg-reader.log"
fi

section "pacing: 60 frames at 30 fps with sync=true"
# max-lateness=-1: a frame late on a loaded host is still written (basesink
# would drop it), so the count stays exact while the clock paces the rest.
GST_DEBUG=fgrabsink:4 gst pacing 60 videotestsrc pattern=$PATTERN num-buffers=60 ! "$CAPS" \
	! fgrabsink device=$DEV sync=true max-lateness=-1
expect_eq "pacing: gst-launch exit status" "$KT_RC" 0
expect_eq "pacing: frames written" "$(frames_written "$KT_LOG")" 60
t=$(log_time "$KT_LOG")
info "60 frames at 30 fps took $t ms from PLAYING to EOS (nominal ~1967 ms)"
expect_ge "pacing: not faster than the clock allows (>= 1000 ms)" "$t" 1000
expect_le "pacing: sane under TCG (<= 30000 ms)" "$t" 30000
GST_DEBUG=fgrabsink:4 gst pacing-nosync 60 videotestsrc pattern=$PATTERN num-buffers=60 ! "$CAPS" \
	! fgrabsink device=$DEV sync=false
info "for comparison, sync=false: $(log_time "$KT_LOG") ms, exit $KT_RC, $(frames_written "$KT_LOG") frames written"

kt_finish
