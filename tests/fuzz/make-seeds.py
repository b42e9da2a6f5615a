#!/usr/bin/env python3
# fgrab
# Copyright (C) 2026 The fgrab authors
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Writes the seed corpus of fuzz-device (corpus/*.bin).

Each seed is the header of fuzz-device.c (mode, choice) and records
(kind, status, payload) describing one kind of device: sane cameras of
every enumeration style, and the absurd answers the device layer must
refuse cleanly.  Run it again after changing the input format:
    tests/fuzz/make-seeds.py tests/fuzz/corpus
"""

import os
import struct
import sys

(QUERYCAP, G_FMT, TRY_FMT, S_FMT, ENUM_FMT, ENUM_FRAMESIZES,
 ENUM_FRAMEINTERVALS, G_PARM, S_PARM, CROPCAP, READ, WRITE, OTHER) = range(13)

SIZE = {QUERYCAP: 104, G_FMT: 48, TRY_FMT: 48, S_FMT: 48, ENUM_FMT: 64,
        ENUM_FRAMESIZES: 44, ENUM_FRAMEINTERVALS: 52, G_PARM: 40, S_PARM: 40,
        CROPCAP: 44, READ: 4, WRITE: 4, OTHER: 64}

ECHO = 0x01   # format answers keep the asked pixel format and size
FAIL = 0x80   # | index into EINVAL ENOTTY EIO EBUSY ENODEV EINTR EAGAIN EPERM
EINVAL, ENOTTY, EIO, EBUSY, ENODEV, EINTR, EAGAIN = range(7)

CAP_VIDEO_CAPTURE = 0x1
CAP_VIDEO_OUTPUT = 0x2
CAP_READWRITE = 0x01000000
CAP_DEVICE_CAPS = 0x80000000
CAP_TIMEPERFRAME = 0x1000


def fourcc(s):
    return struct.unpack('<I', s.encode())[0]


YUYV, NV12, MJPG, MPEG, RGB3, GREY = (fourcc(s) for s in
                                     ('YUYV', 'NV12', 'MJPG', 'MPEG',
                                      'RGB3', 'GREY'))


def rec(kind, payload=b'', status=0):
    payload = payload[:SIZE[kind]].ljust(SIZE[kind], b'\0')
    return bytes([kind, status]) + payload


def querycap(card=b'Fuzz camera', output=False, caps=None):
    if caps is None:
        caps = (CAP_VIDEO_OUTPUT if output else CAP_VIDEO_CAPTURE) | \
            CAP_READWRITE
    return rec(QUERYCAP, b'fuzz'.ljust(16, b'\0') + card.ljust(32, b'\0')[:32]
               + b'platform:fuzz'.ljust(32, b'\0')
               + struct.pack('<IIII', 0x60000, caps | CAP_DEVICE_CAPS, caps, 0))


def pix(w, h, fmt, bpl=0, sizeimage=0, field=1, colorspace=8):
    return struct.pack('<12I', w, h, fmt, field, bpl, sizeimage, colorspace,
                       0, 0, 0, 0, 0)


def fmt_rec(kind, w, h, fmt, bpl=0, sizeimage=0, status=ECHO, field=1):
    return rec(kind, pix(w, h, fmt, bpl, sizeimage, field), status)


def enum_fmt(fmt, desc=b'format'):
    return rec(ENUM_FMT, struct.pack('<III', 0, 0, 0) + desc.ljust(32, b'\0')
               + struct.pack('<I', fmt))


def size_discrete(w, h):
    return rec(ENUM_FRAMESIZES, struct.pack('<IIIII', 0, 0, 1, w, h))


def size_stepwise(minw, maxw, stepw, minh, maxh, steph, typ=3):
    return rec(ENUM_FRAMESIZES, struct.pack('<9I', 0, 0, typ, minw, maxw,
                                            stepw, minh, maxh, steph))


def ival_discrete(n, d):
    return rec(ENUM_FRAMEINTERVALS, struct.pack('<7I', 0, 0, 0, 0, 1, n, d))


def ival_stepwise(minn, mind, maxn, maxd, typ=3):
    return rec(ENUM_FRAMEINTERVALS, struct.pack('<11I', 0, 0, 0, 0, typ,
                                                minn, mind, maxn, maxd, 1, 1))


def parm(kind, n=1, d=30, capability=CAP_TIMEPERFRAME, buffers=2):
    return rec(kind, struct.pack('<6I', capability, 0, n, d, 0, buffers))


def read(n, status=0):
    return rec(READ, struct.pack('<I', n), status)


def write(n, status=0):
    return rec(WRITE, struct.pack('<I', n), status)


def header(element=False, output=False, choice=None):
    if choice is None:
        # elements: four buffers (num-buffers = 1 + choice & 3)
        choice = 3 if element else 0
    return bytes([(1 if element else 0) | (2 if output else 0), choice])


def camera(fmt=YUYV, w=320, h=240, bpl=640, sizeimage=153600, sizes=None,
           ivals=None, reads=None, card=b'Fuzz camera', extra=b''):
    # the element opens the node at READY and again at start()
    out = querycap(card) * 3
    out += fmt_rec(G_FMT, w, h, fmt, bpl, sizeimage, status=0) * 3
    out += parm(G_PARM) * 4
    out += rec(CROPCAP, bytes(36) + struct.pack('<II', 1, 1))
    out += enum_fmt(fmt)
    out += b''.join(sizes if sizes is not None else [size_discrete(w, h)])
    out += b''.join(ivals if ivals is not None else
                    [ival_discrete(1, 30), ival_discrete(1, 15)])
    out += fmt_rec(TRY_FMT, w, h, fmt, bpl, sizeimage) * 4
    out += fmt_rec(S_FMT, w, h, fmt, bpl, sizeimage)
    out += parm(S_PARM)
    out += b''.join(reads if reads is not None else [read(sizeimage)] * 6)
    return out + extra


def output_node(fmt=YUYV, w=320, h=240, bpl=640, sizeimage=153600,
                writes=None):
    out = querycap(b'Fuzz output', True) * 3
    out += fmt_rec(G_FMT, w, h, fmt, bpl, sizeimage, status=0) * 3
    out += parm(G_PARM) * 4 + enum_fmt(fmt) + size_discrete(w, h)
    out += ival_discrete(1, 25)
    out += fmt_rec(TRY_FMT, w, h, fmt, bpl, sizeimage) * 2
    out += fmt_rec(S_FMT, w, h, fmt, bpl, sizeimage) + parm(S_PARM)
    return out + b''.join(writes if writes is not None else
                          [write(sizeimage)] * 6)


SEEDS = {
    # sane devices, each enumeration style
    'yuyv-discrete': header() + camera(),
    'yuyv-discrete-element': header(element=True) + camera(),
    'yuyv-short-reads-element': header(element=True) + camera(
        reads=[read(1000), read(EAGAIN, FAIL | EAGAIN), read(152600),
               read(0, FAIL | EINTR), read(153600), read(0, FAIL | EIO),
               read(153600)]),
    'nv12-padded-element': header(element=True) + camera(
        NV12, 320, 240, 384, 384 * 360),
    'rgb-stepwise': header() + camera(
        RGB3, 640, 480, 1920, 921600,
        sizes=[size_stepwise(16, 1920, 16, 16, 1080, 8)],
        ivals=[ival_stepwise(1, 60, 1, 1)]),
    'grey-continuous-element': header(element=True) + camera(
        GREY, 64, 48, 64, 3072,
        sizes=[size_stepwise(1, 4096, 1, 1, 4096, 1, typ=2)]),
    'mjpeg-framed-element': header(element=True) + camera(
        MJPG, 640, 480, 0, 200000, reads=[read(4000), read(9000),
                                          read(120000)]),
    'mpeg-stream-element': header(element=True) + camera(
        MPEG, 720, 576, 0, 131072, sizes=[], ivals=[],
        reads=[read(65536), read(1316), read(0, FAIL | ENODEV)]),
    'try-fmt-only': header() + querycap() + fmt_rec(G_FMT, 320, 240, YUYV,
                                                   640, 153600, 0)
    + enum_fmt(YUYV) + rec(ENUM_FRAMESIZES, b'', FAIL | EINVAL)
    + fmt_rec(TRY_FMT, 16, 16, YUYV, 32, 512, 0)
    + fmt_rec(TRY_FMT, 1920, 1080, YUYV, 3840, 3840 * 1080, 0)
    + fmt_rec(TRY_FMT, 1920, 1080, YUYV) + fmt_rec(S_FMT, 0, 0, YUYV),
    'output-node': header(output=True) + querycap(b'Fuzz output', True)
    + fmt_rec(G_FMT, 320, 240, YUYV, 640, 153600, 0) + parm(G_PARM) * 3
    + enum_fmt(YUYV) + size_discrete(320, 240) + ival_discrete(1, 25)
    + fmt_rec(TRY_FMT, 320, 240, YUYV, 640, 153600) + fmt_rec(
        S_FMT, 320, 240, YUYV, 640, 153600) + parm(S_PARM)
    + write(100000) + write(0, FAIL | EAGAIN) + write(53600)
    + write(0, FAIL | ENODEV),
    'output-node-element': header(element=True, output=True)
    + output_node(),
    'output-node-short-writes-element': header(element=True, output=True)
    + output_node(writes=[write(1000), write(0, FAIL | EAGAIN),
                          write(0, FAIL | EINTR), write(152600),
                          write(0, FAIL | EIO), write(153600)]),
    'output-node-mjpeg-element': header(element=True, output=True)
    + output_node(MJPG, bpl=0, sizeimage=100000),
    # absurd answers
    'sizeimage-zero': header(element=True) + camera(sizeimage=0, bpl=0),
    'sizeimage-huge': header(element=True) + camera(
        sizeimage=0xfffff000),
    'sizeimage-huge-device': header() + camera(sizeimage=0xfffff000),
    'bytesperline-below-width': header(element=True) + camera(bpl=100),
    'bytesperline-huge': header() + camera(bpl=0x7fffffff,
                                           sizeimage=0x7fffffff),
    'size-huge': header() + camera(w=0x7fff0000, h=0x7fff0000,
                                   bpl=0, sizeimage=0),
    'interval-zero': header(element=True) + camera(
        ivals=[ival_discrete(0, 30), ival_discrete(1, 0)]),
    'interval-huge': header(element=True) + camera(
        ivals=[ival_discrete(0xffffffff, 1), ival_discrete(1, 0xffffffff)]),
    'interval-stepwise-inverted': header() + camera(
        ivals=[ival_stepwise(1, 1, 1, 60)]),
    'step-zero': header() + camera(
        sizes=[size_stepwise(16, 1920, 0, 16, 1080, 0)]),
    'step-not-dividing-min': header() + camera(
        sizes=[size_stepwise(15, 1920, 16, 9, 1080, 8)]),
    'stepwise-single-size': header() + camera(
        sizes=[size_stepwise(320, 320, 16, 240, 240, 16)]),
    'step-huge': header() + camera(
        sizes=[size_stepwise(16, 1920, 0xffffffff, 16, 1080, 0x80000000)]),
    'min-above-max': header() + camera(
        sizes=[size_stepwise(1920, 16, 8, 1080, 16, 8)]),
    'card-unterminated': header() + camera(card=b'X' * 32),
    'querycap-fails': header() + rec(QUERYCAP, b'', FAIL | ENOTTY),
    'no-readwrite': header() + querycap(caps=CAP_VIDEO_CAPTURE),
    's-fmt-changes-size-element': header(element=True) + camera()[:-0 or None]
    .replace(fmt_rec(S_FMT, 320, 240, YUYV, 640, 153600),
             fmt_rec(S_FMT, 160, 120, YUYV, 320, 38400, status=0)),
}


def main():
    outdir = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(__file__), 'corpus')
    os.makedirs(outdir, exist_ok=True)
    for name, data in sorted(SEEDS.items()):
        with open(os.path.join(outdir, name + '.bin'), 'wb') as f:
            f.write(data)
    print('%d seeds in %s' % (len(SEEDS), outdir))


if __name__ == '__main__':
    main()
