#!/bin/bash
# The fake's model of a live input checked against vivid: live-trace (the
# same steps on any node: SOURCE_CHANGE and control events with their
# sequence, pending and payload, vivid's autogain cluster (its flags, the
# events of switching it), POLLPRI, ENUMINPUT's status, QUERYSTD,
# S/G/QUERY_DV_TIMINGS and their errnos, ENUMSTD and ENUM_DV_TIMINGS in
# full, the status of inputs not selected, what S_INPUT restores, S_STD,
# S_INPUT and S_FMT while a third fd reads; the wire moved by vivid's own
# signal mode controls set on a second fd) runs on vivid's capture node
# and on the fake's vivid-live device (LD_PRELOAD), and the two
# transcripts are compared line by line.  A line that cannot be equal is
# listed in KNOWN below with the reason; every other difference fails.
#@vivid: n_devs=1 node_types=0x1
#@v4l2loopback: none
# shellcheck source=../lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"

DEV=/dev/video0
FAKE_DEV=/dev/fgrab-fake-live0
TRACE=${FGRAB_LIVE_TRACE:?FGRAB_LIVE_TRACE not set}
FAKE_LIB=${FGRAB_FAKEV4L2:?FGRAB_FAKEV4L2 not set}

# Lines the two may not share, as sed expressions applied to both
# transcripts before comparing (none so far: see
# docs/testing-with-fakedev.md for the differences no step here shows).
KNOWN=()

# The fake's controls follow the newest kernels, where every control of a
# standard type has V4L2_CTRL_FLAG_HAS_WHICH_MIN_MAX (forky's 7.2);
# Debian 13's 6.12 and older have no such flag, and the fake is told so.
kver=$(uname -r)
kver=${kver%%-*}
which_min_max=1
if [ "$(printf '%s\n' 6.13 "$kver" | sort -V | head -n1)" != 6.13 ]; then
	which_min_max=0
fi

section "live-trace on vivid ($DEV) and on the fake ($FAKE_DEV)"
info "Linux $kver: the fake's controls $([ $which_min_max = 1 ] && echo with || echo without) V4L2_CTRL_FLAG_HAS_WHICH_MIN_MAX"
"$TRACE" $DEV >"$KT_LOGS/vivid.txt" 2>&1 || fail "live-trace on vivid: exit status $?"
LD_PRELOAD=$FAKE_LIB FAKEV4L2_DEVICES=$FAKE_DEV=vivid-live FAKEV4L2_WHICH_MIN_MAX=$which_min_max \
	"$TRACE" $FAKE_DEV >"$KT_LOGS/fake.txt" 2>&1 || fail "live-trace on the fake: exit status $?"

filter() {
	local f=$1 e
	cp "$f" "$f.cmp"
	for e in "${KNOWN[@]}"; do sed -i -e "$e" "$f.cmp"; done
}
filter "$KT_LOGS/vivid.txt"
filter "$KT_LOGS/fake.txt"

total=$(wc -l <"$KT_LOGS/vivid.txt.cmp")
same=$(paste -d '\n' "$KT_LOGS/vivid.txt.cmp" "$KT_LOGS/fake.txt.cmp" |
	awk 'NR % 2 { a = $0; next } a == $0 { n++ } END { print n + 0 }')
info "transcript lines: vivid $total, fake $(wc -l <"$KT_LOGS/fake.txt.cmp"), equal at the same line: $same"
if diff -u "$KT_LOGS/vivid.txt.cmp" "$KT_LOGS/fake.txt.cmp" >"$KT_LOGS/diff.txt"; then
	pass "the fake's transcript is vivid's ($same of $total lines)"
else
	fail "the fake's transcript differs from vivid's ($same of $total lines equal)"
	show_log "$KT_LOGS/diff.txt" 80
fi
expect_ge "the transcript has its steps" "$total" 240
kt_finish
