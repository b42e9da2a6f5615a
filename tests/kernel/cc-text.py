#!/usr/bin/python3
# fgrab
# Copyright (C) 2026 The fgrab authors
# SPDX-License-Identifier: LGPL-2.1-or-later
"""The pop-on caption texts of CEA-608 field 1 (CC1), one a line, in order.

  cc-text.py records FILE   FILE: struct v4l2_sliced_vbi_data records (64 bytes
                            each) as a sliced VBI node's read() gives them, or
                            v4l2-ctl --stream-to writes them
  cc-text.py s334 FILE      FILE: s334-1a triplets (fgrabsrc's caption buffers)
  cc-text.py pairs FILE     FILE: s334-1a triplets; prints the field-1 byte
                            pairs that are not padding, one a line in hex, so
                            that two stages of a pipeline can be compared
  cc-text.py shown FILE     FILE: s334-1a triplets; the captions a pop-on
                            decoder shows for them, the way FFmpeg's
                            (libavcodec ccaption_dec, buffered) does: what
                            was loaded since the previous end of caption,
                            whatever "resume caption loading" was lost; so
                            that a decoder's output can be checked against
                            the pairs actually recorded, whatever frames
                            the driver dropped
  cc-text.py check FILE     FILE: captions one a line (the output of the
                            above); checks them against the two captions
                            vivid sends (vivid-vbi-gen.c): each must be one
                            of them with at most whole character pairs lost
                            (a frame the driver dropped under load: read()
                            cannot deliver it later), and at least one must
                            come whole. Exit 1 otherwise.

A caption is the printable characters between "resume caption loading"
(0x14 0x20) and "end of caption" (0x14 0x2f); parity bits are stripped and
bytes with bad parity dropped, as a decoder does. Only what the tests need of
CEA-608: the basic character set and these two commands.
"""
import struct
import sys

VIVID_CAPTIONS = ["Hello world!", "Closed captions test"]

V4L2_SLICED_CAPTION_525 = 0x1000


def odd_parity_ok(b):
    return bin(b).count("1") % 2 == 1


def field1_pairs_from_records(data):
    for off in range(0, len(data) - 63, 64):
        sid, field, line, _ = struct.unpack_from("<IIII", data, off)
        if sid == V4L2_SLICED_CAPTION_525 and field == 0 and line == 21:
            yield data[off + 16], data[off + 17]


def field1_pairs_from_s334(data):
    for off in range(0, len(data) - 2, 3):
        if data[off] & 0x80:
            yield data[off + 1], data[off + 2]


def captions(pairs):
    out, text, loading = [], "", False
    for b1, b2 in pairs:
        if not (odd_parity_ok(b1) and odd_parity_ok(b2)):
            continue
        b1, b2 = b1 & 0x7F, b2 & 0x7F
        if (b1, b2) == (0x14, 0x20):
            loading, text = True, ""
        elif (b1, b2) == (0x14, 0x2F):
            if loading and text:
                out.append(text)
            loading = False
        elif loading:
            text += "".join(chr(c) for c in (b1, b2) if 0x20 <= c < 0x7F)
    return out


class PopOnDecoder:
    """FFmpeg's CEA-608 decoder (ccaption_dec.c, buffered mode), reduced to
    what vivid sends: characters, "resume caption loading" and "end of
    caption", on one row.  It starts in roll-up mode (characters go to the
    displayed memory); "resume caption loading" only selects pop-on mode
    (characters go to the non-displayed memory; the text is not reset, so
    a caption whose end was lost runs on into the next); "end of caption"
    swaps the memories, shows the loaded text, erases it and puts the
    cursor back to column 0.  A control pair repeated at once is ignored
    (608 sends them twice); a pair whose second byte fails parity too."""

    COLUMNS = 32

    def __init__(self):
        self.memory = [[], []]  # the row of each memory, up to the cursor
        self.active = 0  # the displayed memory
        self.popon = False
        self.col = 0
        self.prev_cmd = None
        self.shown = []

    def write(self, chars):
        mem = self.memory[1 - self.active if self.popon else self.active]
        for c in chars:
            if self.col < self.COLUMNS:
                del mem[self.col:]
                mem.append(c)
                self.col += 1
        del mem[self.col:]

    def end_of_caption(self):
        self.active = 1 - self.active
        text = "".join(self.memory[self.active]).lstrip(" ")
        if text:
            self.shown.append(text)
        self.memory[self.active] = []
        self.col = 0

    def pair(self, b1, b2):
        if not odd_parity_ok(b2):
            return
        b1 = b1 & 0x7F if odd_parity_ok(b1) else 0x7F
        b2 &= 0x7F
        if b1 >= 0x20:
            self.prev_cmd = None
            self.write([chr(c) for c in (b1, b2) if c])
            return
        if (b1, b2) == self.prev_cmd:
            return
        self.prev_cmd = (b1, b2)
        if (b1, b2) == (0x14, 0x20):
            self.popon = True
        elif (b1, b2) == (0x14, 0x2F):
            self.end_of_caption()


def shown(pairs):
    decoder = PopOnDecoder()
    for b1, b2 in pairs:
        decoder.pair(b1, b2)
    return decoder.shown


def pairs_lost(got, want):
    """The pairs of @want that @got lacks, or None when @got is not @want
    with whole pairs (of the caption's frames) taken out."""
    pairs = [want[i:i + 2] for i in range(0, len(want), 2)]
    lost, pos = [], 0
    for pair in pairs:
        if got.startswith(pair, pos):
            pos += len(pair)
        else:
            lost.append(pair)
    return lost if pos == len(got) else None


def check(captions_got):
    whole, ok = set(), True
    for got in captions_got:
        best = None
        for want in VIVID_CAPTIONS:
            lost = pairs_lost(got, want)
            if lost is not None and (best is None or len(lost) < len(best[1])):
                best = (want, lost)
        if best is None:
            print("WRONG: %r is none of vivid's captions" % got)
            ok = False
        elif best[1]:
            print("lossy: %r is %r without %s (dropped frames)" %
                  (got, best[0], best[1]))
        else:
            print("whole: %r" % got)
            whole.add(got)
    if not whole:
        print("MISSING: no caption came whole")
        ok = False
    return ok


def main():
    mode, path = sys.argv[1], sys.argv[2]
    if mode == "check":
        with open(path, encoding="utf-8") as f:
            sys.exit(0 if check([l.rstrip("\n") for l in f if l.strip()]) else 1)
    with open(path, "rb") as f:
        data = f.read()
    if mode == "pairs":
        for b1, b2 in field1_pairs_from_s334(data):
            if (b1, b2) != (0x80, 0x80):
                print("%02x %02x" % (b1, b2))
        return
    if mode == "shown":
        for caption in shown(field1_pairs_from_s334(data)):
            print(caption)
        return
    pairs = (field1_pairs_from_records(data) if mode == "records"
             else field1_pairs_from_s334(data))
    for caption in captions(pairs):
        print(caption)


if __name__ == "__main__":
    main()
