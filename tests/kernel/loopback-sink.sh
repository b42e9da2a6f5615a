#!/bin/bash
# Helpers shared by the scenarios in which fgrabsink writes a live videotestsrc
# sequence into v4l2loopback. They use the scenario's DEV, CAPS, PATTERN, W,
# H and FRAME_BYTES; reference sets REF_LIST and REF_IDX. Source after lib.sh.

# start_writer TAG FRAMES [FGRABSINK-PROPS...]: fgrabsink writes FRAMES of the
# live sequence in the background (gst-launch -e: SIGINT ends it with EOS);
# returns once it configured the device and wrote its first frame (sets
# WRITER_PID and WRITER_LOG), ends the scenario if it does not within 30 s.
# (fgrabnode:6 logs each write().)
start_writer() {
	local tag=$1 n=$2
	shift 2
	GST_DEBUG=fgrabsink:4,fgrabnode:6 gst_bg "$tag-writer" -e videotestsrc pattern="$PATTERN" num-buffers="$n" is-live=true \
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

# wait_capture_format TAG: until the writer's first frame is in and the
# loopback lists a capture format.  0.12 lists none before that frame; 0.15
# lists one on an idle node too, but refuses a reader's STREAMON (EIO) until
# a writer streams, so the frame is waited for first.  Ends the scenario if
# that takes over 30 s.
wait_capture_format() {
	local i
	wait_for_log "$WRITER_LOG" 'fgrab_node_write: .*: wrote [0-9]+ of [0-9]+' 30 ||
		fatal "$1: fgrabsink wrote no frame to $DEV within 30 s of configuring it"
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

# reference N: the md5 of each of the N frames the writer will send, in
# REF_LIST (in order) and REF_IDX (md5 -> index); checks that there are N,
# each of FRAME_BYTES bytes and all different (the scenarios tell frames
# apart by their md5).
reference() {
	local n=$1 m sz i ref_bad=0 rc
	section "reference: md5 of each of the $n frames sent ($PATTERN, ${W}x$H YUY2)"
	set +e
	gst-launch-1.0 -q videotestsrc pattern="$PATTERN" num-buffers="$n" ! "$CAPS" ! fdsink fd=1 \
		2>"$KT_LOGS/reference.log" | md5s - >"$KT_WORK/ref.md5"
	rc=("${PIPESTATUS[@]}")
	set -e
	if [ "${rc[0]}" -ne 0 ] || [ "${rc[1]}" -ne 0 ]; then
		show_log "$KT_LOGS/reference.log"
		fatal "cannot compute the reference md5s (gst-launch exit ${rc[0]}, md5 exit ${rc[1]})"
	fi
	REF_LIST=()
	while read -r m sz; do
		REF_LIST+=("$m")
		[ "$sz" = "$FRAME_BYTES" ] || ref_bad=$((ref_bad + 1))
	done <"$KT_WORK/ref.md5"
	expect_eq "reference: frames rendered" "${#REF_LIST[@]}" "$n"
	expect_eq "reference: frames not of $FRAME_BYTES bytes" "$ref_bad" 0
	declare -gA REF_IDX=()
	for i in "${!REF_LIST[@]}"; do REF_IDX[${REF_LIST[$i]}]=$i; done
	expect_eq "reference: every frame differs (distinct md5s)" "${#REF_IDX[@]}" "$n"
}

# idx_of MD5: the index of the sent frame with that md5 (-1 if none)
idx_of() { echo "${REF_IDX[$1]:--1}"; }
