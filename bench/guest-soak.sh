#!/bin/bash
# Inside the VM (started by bench/soak.sh): fgrabsink writes a live pattern
# into v4l2loopback while fgrabsrc reads it back, for SECONDS; every 10 s the
# RSS and the open fds of both gst-launch processes go to soak.csv in the
# results share. Ends with a summary: RSS at the start of the measured part
# (after a warm-up minute), at the end, the maximum, and the fd counts.
#@vivid: none
#@v4l2loopback: devices=1 video_nr=10 card_label=loop
set -euo pipefail
seconds=${1:-1800}
interval=10
warmup=60
dev=/dev/video10
caps='video/x-raw,format=YUY2,width=320,height=240,framerate=30/1'
out=${FGRAB_OUT:?}
csv=$out/soak.csv

rss_kb() { awk '/^VmRSS:/ { print $2 }' "/proc/$1/status" 2>/dev/null || echo 0; }
fds() { find "/proc/$1/fd" -mindepth 1 -maxdepth 1 2>/dev/null | wc -l; }
# pid of the gst-launch-1.0 started in the background as $!: the one whose
# parent is that pid, or that pid itself (no timeout wrapper here)
alive() { kill -0 "$1" 2>/dev/null; }

GST_DEBUG=fgrabsink:4,fgrabsrc:4 GST_DEBUG_NO_COLOR=1 gst-launch-1.0 -e videotestsrc \
	pattern=ball is-live=true ! "$caps" ! fgrabsink device=$dev max-lateness=-1 \
	>"$out/writer.log" 2>&1 &
writer=$!
for _ in $(seq 1 300); do
	grep -q 'configured video/x-raw' "$out/writer.log" && break
	sleep 0.1
done
grep -q 'configured video/x-raw' "$out/writer.log" || {
	tail -n 20 "$out/writer.log"
	echo "soak: fgrabsink did not configure $dev"
	exit 1
}
GST_DEBUG=fgrabsrc:4 GST_DEBUG_NO_COLOR=1 gst-launch-1.0 -e fgrabsrc device=$dev \
	! "video/x-raw,width=320,height=240" ! fakesink sync=false \
	>"$out/reader.log" 2>&1 &
reader=$!

echo "t_s,writer_rss_kb,writer_fds,reader_rss_kb,reader_fds" >"$csv"
start=$(date +%s)
while :; do
	now=$(date +%s)
	t=$((now - start))
	alive "$writer" || { echo "soak: the writer died at ${t} s"; tail -n 20 "$out/writer.log"; exit 1; }
	alive "$reader" || { echo "soak: the reader died at ${t} s"; tail -n 20 "$out/reader.log"; exit 1; }
	echo "$t,$(rss_kb "$writer"),$(fds "$writer"),$(rss_kb "$reader"),$(fds "$reader")" >>"$csv"
	[ "$t" -ge "$seconds" ] && break
	sleep $interval
done
kill -INT "$writer" "$reader"
wait "$writer" || echo "soak: writer exit status $?"
wait "$reader" || echo "soak: reader exit status $?"
frames_w=$(sed -n 's/.* \([0-9]*\) frames written.*/\1/p' "$out/writer.log" | tail -n1)
frames_r=$(sed -n 's/.* \([0-9]* frames captured, [0-9]* dropped\).*/\1/p' "$out/reader.log" | tail -n1)
echo "soak: ${seconds} s, fgrabsink: ${frames_w:-?} frames written; fgrabsrc: ${frames_r:-?}"
echo "soak: ERROR lines in the logs: writer $(grep -c 'ERROR' "$out/writer.log" || true), reader $(grep -c 'ERROR' "$out/reader.log" || true)"

awk -F, -v warm=$warmup 'NR > 1 {
	if (!base_set && $1 >= warm) { bw = $2; br = $4; bfw = $3; bfr = $5; base_set = 1 }
	if ($2 > mw) mw = $2; if ($4 > mr) mr = $4
	lw = $2; lr = $4; lfw = $3; lfr = $5; lt = $1
}
END {
	printf "soak: samples every 10 s up to %d s; measured from %d s\n", lt, warm
	printf "soak: fgrabsink RSS %d kB -> %d kB (max %d, growth %+d kB), fds %d -> %d\n", bw, lw, mw, lw - bw, bfw, lfw
	printf "soak: fgrabsrc  RSS %d kB -> %d kB (max %d, growth %+d kB), fds %d -> %d\n", br, lr, mr, lr - br, bfr, lfr
}' "$csv"
