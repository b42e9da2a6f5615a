#!/bin/bash
# The fake's read() queue checked against the drivers (docs/testing-with-
# fakedev.md, "Frame timing, queue depth" and "vb2 read()"): read-queue-trace
# runs the same vb2 steps on vivid's capture node and on the fake's
# vivid-live device (LD_PRELOAD) and the transcripts are compared line by
# line: G_PARM's readbuffers (1 whatever S_PARM asks), a second fd's read()
# (EBUSY) and probe ioctls while the first reads, the whole frames waiting
# for a reader 12 periods late (the driver's own queue, not readbuffers),
# the second fd's read() after the first one's close, and the queue taken
# by a poll() for POLLIN (vb2_fop_poll), not by one for POLLPRI.  Then its
# loopback steps on v4l2loopback: which numbered frame a reader 1, 10 and 2
# frames behind the writer gets (get_capture_buffer: in order within
# max_buffers, else the newest).
#@vivid: n_devs=1 node_types=0x1
#@v4l2loopback: devices=1 video_nr=10 card_label=loop
# shellcheck source=../lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"

DEV=/dev/video0
LOOP=/dev/video10
FAKE_DEV=/dev/fgrab-fake-queue0
TRACE=${FGRAB_READ_QUEUE_TRACE:?FGRAB_READ_QUEUE_TRACE not set}
FAKE_LIB=${FGRAB_FAKEV4L2:?FGRAB_FAKEV4L2 not set}

# Lines the two may not share, as sed expressions applied to both
# transcripts before comparing (none: the fake refuses S_FMT while its
# queue is busy as vivid_s_fmt_vid_cap does).
KNOWN=()

section "read-queue-trace vb2 on vivid ($DEV) and on the fake ($FAKE_DEV)"
v4l2-ctl -d $DEV -i 0 >/dev/null || fatal "cannot select vivid input 0"
"$TRACE" vb2 $DEV >"$KT_LOGS/vivid.txt" 2>&1 || fail "read-queue-trace on vivid: exit status $?"
LD_PRELOAD=$FAKE_LIB FAKEV4L2_DEVICES=$FAKE_DEV=vivid-live \
	"$TRACE" vb2 $FAKE_DEV >"$KT_LOGS/fake.txt" 2>&1 || fail "read-queue-trace on the fake: exit status $?"
show_log "$KT_LOGS/vivid.txt" 40

for f in "$KT_LOGS/vivid.txt" "$KT_LOGS/fake.txt"; do
	cp "$f" "$f.cmp"
	for e in "${KNOWN[@]}"; do sed -i -e "$e" "$f.cmp"; done
done
total=$(wc -l <"$KT_LOGS/vivid.txt.cmp")
if diff -u "$KT_LOGS/vivid.txt.cmp" "$KT_LOGS/fake.txt.cmp" >"$KT_LOGS/diff.txt"; then
	pass "the fake's transcript is vivid's ($total lines)"
else
	fail "the fake's transcript differs from vivid's"
	show_log "$KT_LOGS/diff.txt" 60
fi
expect_ge "the transcript has its steps" "$total" 15
expect_log "vivid: a second fd's read() is EBUSY" '^B read while A reads: EBUSY$' "$KT_LOGS/vivid.txt"
expect_log "vivid: a poll() for POLLIN takes the queue" "^D read after C's poll for POLLIN: EBUSY$" "$KT_LOGS/vivid.txt"
expect_log "vivid: a poll() for POLLPRI takes nothing" "^D read after C's poll for POLLPRI: whole frame$" "$KT_LOGS/vivid.txt"
expect_log "vivid: S_FMT on the second fd is EBUSY" '^B S_FMT: EBUSY$' "$KT_LOGS/vivid.txt"

loopback_version
section "read-queue-trace loopback on v4l2loopback $LOOP_VERSION ($LOOP)"
"$TRACE" loopback $LOOP >"$KT_LOGS/loopback.txt" 2>&1 || fail "read-queue-trace on v4l2loopback: exit status $?"
show_log "$KT_LOGS/loopback.txt" 20
expect_log "10 frames behind: the newest frame" '^10 frames behind: frame 11$' "$KT_LOGS/loopback.txt"
expect_log "then nothing until the next write" '^then: EAGAIN$' "$KT_LOGS/loopback.txt"
expect_log "2 frames behind: both, in order" '^2 frames behind, first: frame 12$' "$KT_LOGS/loopback.txt"
expect_log "2 frames behind: the second" '^2 frames behind, second: frame 13$' "$KT_LOGS/loopback.txt"
kt_finish
