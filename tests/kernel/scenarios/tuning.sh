#!/bin/bash
# Tuning on vivid's "TV 0" input (input 1: an analog TV tuner, 44 to 958 MHz in
# 62.5 kHz units). vivid models reception (vivid_update_quality): a channel
# every 6 MHz at 49.25, 55.25, ... MHz; within 0.25 MHz of one the picture is
# its test pattern in colour and G_TUNER reports full signal, further than
# 1 MHz away the picture is noise (random per line and frame) and the signal
# 0. fgrabsrc tunes to channel 3 (61.25 MHz) with an audio mode at open: the
# frequency, signal and audio mode must read back in the properties and in
# v4l2-ctl -F / --get-tuner from a second handle while it streams, and two
# frames of the still pattern must be the same. Tuned off the channel while
# playing, the signal drops to 0 and the frames turn to noise. A frequency on
# the webcam input, which has no tuner, and one outside the tuner's range are
# errors that say what to do.
#@vivid: n_devs=1 node_types=0x101
# shellcheck source=../lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"

CAP=/dev/video0
require_element fgrabsrc
[ -x "$KT_PYTHON" ] || fatal "$KT_PYTHON missing"
# no moving pattern or counters: frames on a channel are alike
vivid_still

# tuning TAG PIPELINE [LIVE]: fgrab-probe.py tuning (sets KT_LOG, KT_RC)
tuning() {
	KT_LOG=$KT_LOGS/$1.log
	KT_RC=0
	timeout -k 5 90 "$KT_PYTHON" "$KT_PROBE" tuning "$2" $CAP ${3:+"$3"} >"$KT_LOG" 2>&1 || KT_RC=$?
	info "fgrab-probe tuning ($1) -> exit $KT_RC"
}

# got PHASE FIELD: what the probe printed as PHASE.FIELD=...
got() { log_match "^$1\\.$2=(.*)$"; }
# tuner PHASE LABEL: the value of v4l2-ctl's LABEL line in PHASE
tuner() { log_match "^$1\\.ctl: $2 *: *(.*)$"; }
has() { if grep -Fq -- "$2" "$KT_LOG"; then pass "$1"; else fail "$1 (no '$2')"; fi; }

TV="fgrabsrc name=el device=$CAP input=1 norm=NTSC"
# input_name N: the driver's name of input N; vivid's are "Webcam 0" and
# "TV 0" on Linux 6.1, "Webcam 000-0" and "TV 000-0" on 6.12
input_name() {
	v4l2-ctl -d $CAP --list-inputs 2>/dev/null |
		awk -v n="$1" '$1 == "Input" { cur = $3 } $1 == "Name" && cur == n { sub(/^[^:]*: /, ""); print; exit }'
}
IN0=$(input_name 0) IN1=$(input_name 1)
[ -n "$IN0" ] && [ -n "$IN1" ] || fatal "cannot read the names of vivid's inputs 0 and 1"
info "inputs: 0 '$IN0', 1 '$IN1'"

section "channel 3 at open, read back; off the channel while playing: noise, no signal"
tuning channel "$TV frequency=61250000 audio-mode=lang1 ! video/x-raw ! fakesink" \
	"frequency=64250000,audio-mode=stereo"
show_log "$KT_LOG" 40
expect_eq "probe exit" "$KT_RC" 0
expect_eq "frequency reads back" "$(got start frequency)" 61250000
expect_eq "v4l2-ctl -F from a second handle" "$(log_match '^start\.ctl: (Frequency for tuner 0: .*)$')" \
	"Frequency for tuner 0: 980 (61.250000 MHz)"
expect_eq "signal on the channel (full)" "$(got start signal)" 65535
expect_eq "v4l2-ctl signal on the channel" "$(tuner start 'Signal strength/AFC')" "100%/0"
expect_eq "audio mode in v4l2-ctl --get-tuner" "$(tuner start 'Current audio mode')" lang1
expect_eq "audio-mode reads back (lang1 = 3)" "$(got start audio-mode)" 3
D=$(got start frame-diff)
info "bytes differing between two frames on the channel: $D%"
expect_eq "the still pattern: two frames alike" "$D" 0
expect_eq "retuned while playing" "$(got live frequency)" 64250000
expect_eq "v4l2-ctl -F after the channel change" "$(log_match '^live\.ctl: (Frequency for tuner 0: .*)$')" \
	"Frequency for tuner 0: 1028 (64.250000 MHz)"
expect_eq "signal off the channel" "$(got live signal)" 0
expect_eq "v4l2-ctl signal off the channel" "$(tuner live 'Signal strength/AFC')" "0%/0"
expect_eq "audio mode changed live" "$(tuner live 'Current audio mode')" stereo
D=$(got live frame-diff)
info "bytes differing between two frames off the channel: $D%"
expect_ge "noise: most of two frames differ" "$D" 50
expect_no_log "no warning" "^warning:"

section "a frequency on the webcam input, which has no tuner: an error naming the TV input"
tuning webcam "fgrabsrc name=el device=$CAP input=0 frequency=61250000 ! video/x-raw ! fakesink"
show_log "$KT_LOG" 10
expect_eq "probe exit (pipeline error)" "$KT_RC" 1
has "no tuner, with the inputs that have one" "error: Input 0 ('$IN0') of device '$CAP' has no tuner, so 'frequency' cannot be set. The inputs with a tuner are: 1 '$IN1'; select one with the 'input' property, or leave 'frequency' unset."

section "a frequency outside the tuner's range: an error giving it in MHz"
tuning range "$TV frequency=1000000000 ! video/x-raw ! fakesink"
show_log "$KT_LOG" 10
expect_eq "probe exit (pipeline error)" "$KT_RC" 1
has "the range in MHz" "error: The frequency 1000 MHz is outside the range of the tuner of input 1 ('$IN1') of device '$CAP': 44 to 958 MHz. Set 'frequency' (in Hz) within it."

kt_finish
