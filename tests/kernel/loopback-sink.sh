#!/bin/bash
# Helpers shared by the scenarios in which fgrabsink writes a live videotestsrc
# sequence into v4l2loopback. They use the scenario's DEV, CAPS, PATTERN,
# FRAME_BYTES and REF_IDX. Source after lib.sh.

# start_writer TAG FRAMES [FGRABSINK-PROPS...]: fgrabsink writes FRAMES of the
# live sequence in the background (gst-launch -e: SIGINT ends it with EOS);
# returns once it configured the device (sets WRITER_PID and WRITER_LOG), ends
# the scenario if it does not within 30 s.
start_writer() {
	local tag=$1 n=$2
	shift 2
	GST_DEBUG=fgrabsink:4 gst_bg "$tag-writer" -e videotestsrc pattern="$PATTERN" num-buffers="$n" is-live=true \
		! "$CAPS" ! fgrabsink device="$DEV" "$@"
	WRITER_PID=$KT_PID WRITER_LOG=$KT_LOG
	if ! wait_for_log "$WRITER_LOG" 'gst_fgrab_sink_configure.*configured video/x-raw' 30; then
		wait_exit "$WRITER_PID" 5 || true
		show_log "$WRITER_LOG"
		fatal "$tag: fgrabsink did not configure $DEV within 30 s"
	fi
	info "fgrabsink configured $DEV: $(grep -o 'payload [0-9]* bytes (driver.s sizeimage [0-9]*)' "$WRITER_LOG" | head -n1)"
	wait_capture_format "$tag"
}

# wait_capture_format TAG: until the loopback lists a capture format, which
# it does once the writer's first frame is in (a reader opened before that
# finds no format); ends the scenario if that takes over 30 s.
wait_capture_format() {
	local i
	for ((i = 0; i < 300; i++)); do
		v4l2-ctl -d "$DEV" --list-formats 2>/dev/null | grep -q "^[[:space:]]*\[[0-9]*\]:" && return 0
		sleep 0.1
	done
	fatal "$1: $DEV lists no capture format 30 s after fgrabsink configured it"
}

# finish_writer TAG: waits for the writer; checks it ended with EOS, exit 0.
finish_writer() {
	local tag=$1
	wait_exit "$WRITER_PID" 60 || true
	WRITER_RC=$KT_RC
	expect_eq "$tag: fgrabsink pipeline exit status" "$WRITER_RC" 0
	expect_log "$tag: fgrabsink pipeline reached EOS" 'Got EOS from element' "$WRITER_LOG"
	expect_no_log "$tag: no error from the writer" '^ERROR: ' "$WRITER_LOG"
	WRITER_FRAMES=$(frames_written "$WRITER_LOG")
	info "fgrabsink wrote $WRITER_FRAMES frames"
}

# md5s FILE: "md5 size" of each FRAME_BYTES-sized frame of a raw file ("-": stdin)
md5s() {
	"$KT_PYTHON" -c '
import hashlib, sys
n = int(sys.argv[1])
f = sys.stdin.buffer if sys.argv[2] == "-" else open(sys.argv[2], "rb")
while True:
    b = f.read(n)
    if not b:
        break
    print(hashlib.md5(b).hexdigest(), len(b))
' "$FRAME_BYTES" "$1"
}

# idx_of MD5: the index of the sent frame with that md5 (-1 if none)
idx_of() { echo "${REF_IDX[$1]:--1}"; }
