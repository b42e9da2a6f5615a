#!/usr/bin/python3
# fgrab
# Copyright (C) 2026 The fgrab authors
#
# This library is free software; you can redistribute it and/or
# modify it under the terms of the GNU Library General Public
# License as published by the Free Software Foundation; either
# version 2.1 of the License, or (at your option) any later version.
#
# This library is distributed in the hope that it will be useful,
# but WITHOUT ANY WARRANTY; without even the implied warranty of
# MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.  See the GNU
# Library General Public License for more details.
#
# You should have received a copy of the GNU Library General Public
# License along with this library; if not, write to the
# Free Software Foundation, Inc., 51 Franklin St, Fifth Floor,
# Boston, MA 02110-1301, USA.
"""Unit-tier runs of the examples against the fake V4L2 device.

  run-examples.py CASE PROGRAM...

The examples are ordinary programs: they cannot call the fake's C API, so
the devices come from FAKEV4L2_DEVICES and what the devices saw comes back
through FAKEV4L2_REPORT (tests/fakedev/fakev4l2-env.c).  Each case checks
what the example prints against that report: the example's readback and
the fake's own state must agree, and both must be what the fake's rules
make of the request.  LD_PRELOAD and GST_PLUGIN_PATH_1_0 come from meson.
Prints TAP.
"""

import os
import re
import subprocess
import sys
import tempfile

CAP = "/dev/fake-example-video0"
OUT = "/dev/fake-example-video10"
HANG_GUARD = 120  # seconds; the examples have their own, shorter guards

checks = []


def check(desc, ok, detail=""):
    checks.append(ok)
    print("%s %d - %s%s" % ("ok" if ok else "not ok", len(checks), desc,
                            "" if ok else " # " + detail))


def expect_eq(desc, got, want):
    check("%s: %r" % (desc, want), got == want, "got %r" % (got,))


def run(program, args, devices=None, extra_env=None):
    """Runs an example with fresh fake devices; returns (exit status,
    {key: [values]}, stderr, report text)."""
    with tempfile.TemporaryDirectory() as tmp:
        report = os.path.join(tmp, "report.txt")
        env = dict(os.environ)
        env.update(extra_env or {})
        env["FAKEV4L2_DEVICES"] = devices or "%s=capture;%s=output" % (
            CAP, OUT)
        env["FAKEV4L2_REPORT"] = report
        p = subprocess.run(program + args, env=env, stdin=subprocess.DEVNULL,
                           capture_output=True, text=True, timeout=HANG_GUARD)
        text = open(report).read() if os.path.exists(report) else ""
    print("# $ %s" % " ".join(program + args))
    for line in (p.stdout + p.stderr + text).splitlines():
        print("#   " + line)
    keys = {}
    for line in p.stdout.splitlines():
        k, sep, v = line.partition(": ")
        if sep:
            keys.setdefault(k, []).append(v)
    return p.returncode, keys, p.stderr, text


def one(keys, k):
    v = keys.get(k, [])
    return v[0] if len(v) == 1 else v


def report_block(text, path):
    """The report lines of device @path (the last process that used it)."""
    blocks = re.split(r"(?m)^(?=device )", text)
    mine = [b for b in blocks if b.startswith("device %s " % path)]
    return mine[-1] if mine else ""


def case_capture(program):
    # a rate and read parameters that the fake device can honour, so that
    # what the example reads back is the request and the driver's state
    rc, keys, err, text = run(program, [
        "--device", CAP, "--frames", "8", "--caps",
        "video/x-raw,framerate=15/1", "--readbuffers", "4", "--high-quality"])
    expect_eq("capture exits 0", rc, 0)
    rep = report_block(text, CAP)
    check("the fake device was used", rep != "", "no report for " + CAP)
    caps = one(keys, "caps")
    check("caps are the device's YUY2 320x240",
          isinstance(caps, str) and "format=(string)YUY2" in caps
          and "width=(int)320" in caps and "height=(int)240" in caps,
          "caps %r" % (caps,))
    expect_eq("framerate the driver chose", one(keys, "framerate"), "15/1")
    check("the device runs at 1/15", "timeperframe 1/15 " in rep, rep)
    expect_eq("readbuffers read back", one(keys, "readbuffers"), "4")
    check("the device has 4 read buffers", "buffers 4\n" in rep, rep)
    expect_eq("capturemode read back", one(keys, "capturemode"),
              "high-quality")
    expect_eq("card", one(keys, "card"), "Fake capture (FAKEV4L2_DEVICES)")
    expect_eq("frames", one(keys, "frames"), "8")
    expect_eq("frame bytes", one(keys, "frame-bytes"), str(320 * 240 * 2))
    m = re.search(r"read (\d+) frames", rep)
    check("the device delivered at least 8 frames",
          m is not None and int(m.group(1)) >= 8, rep)

    # no caps: fixation keeps the device's current rate (1/30)
    rc, keys, err, text = run(program, ["--device", CAP, "--frames", "3"])
    expect_eq("capture (no caps) exits 0", rc, 0)
    expect_eq("framerate kept from the device", one(keys, "framerate"),
              "30/1")
    expect_eq("readbuffers: the driver's own", one(keys, "readbuffers"), "2")
    expect_eq("capturemode: none asked, none kept", one(keys, "capturemode"),
              "none")

    # a node that does not exist: the element's error, printed, exit 1
    missing = "/dev/fake-example-missing"
    rc, keys, err, text = run(program, ["--device", missing, "--frames", "3"])
    expect_eq("missing device exits 1", rc, 1)
    check("the bus error is printed, naming the node",
          re.search(r"^error: src: .*%s" % re.escape(missing), err, re.M)
          is not None, err.strip())

    rc, keys, err, text = run(program, ["--frames", "0"])
    expect_eq("bad arguments exit 2", rc, 2)


def case_output(program):
    rc, keys, err, text = run(program, [
        "output", "--device", OUT, "--before", "5", "--after", "7",
        "--from", "320x240", "--to", "640x480"])
    expect_eq("output exits 0", rc, 0)
    rep = report_block(text, OUT)
    expect_eq("sent", keys.get("sent"), ["5 frames 320x240", "7 frames 640x480"])
    expect_eq("the device before the switch", one(keys, "device-before-switch"),
              "320x240 YUYV bytesperline=640 sizeimage=153600")
    expect_eq("the device at the end", one(keys, "device-at-end"),
              "640x480 YUYV bytesperline=1280 sizeimage=614400")
    written = re.findall(r"written (\d+) frames (\S+) (\d+x\d+) of (\d+) bytes",
                         rep)
    expect_eq("what the device got, by the fake's record", written,
              [("5", "YUYV", "320x240", "153600"),
               ("7", "YUYV", "640x480", "614400")])
    expect_eq("writebuffers read back", one(keys, "writebuffers"), "2")
    expect_eq("card", one(keys, "card"), "Fake output (FAKEV4L2_DEVICES)")

    # a capture node given to the sink: the element's error, exit 1
    rc, keys, err, text = run(program, ["output", "--device", CAP])
    expect_eq("capture node for the sink exits 1", rc, 1)
    check("the bus error is printed", re.search(r"^error: sink: ", err, re.M)
          is not None, err.strip())


def case_webcam_on_demand(program):
    # a reader streams from 1.5 s to 3 s: the expensive branch runs then
    rc, keys, err, _ = run(program, [OUT, "--seconds", "5"],
                           "%s=loopback-watched" % OUT,
                           {"FAKEV4L2_READER_AT_MS": "1500",
                            "FAKEV4L2_READER_FOR_MS": "1500"})
    expect_eq("exit status", rc, 0)
    expect_eq("readers, as the fake's reader came and went",
              keys.get("readers"), ["0", "1", "0"])
    exp = keys.get("expensive", [])
    check("the expensive branch started and stopped once",
          len(exp) == 2 and exp[0] == "started" and
          exp[1].startswith("stopped"), repr(exp))
    m = re.match(r"stopped \((\d+) frames\)", exp[-1] if exp else "")
    # 1.5 s at 30 fps is 45: generous bounds for a loaded machine
    check("it ran while the reader streamed", m is not None and
          10 <= int(m.group(1)) <= 90, repr(exp))

    # v4l2loopback 0.12 does not say: the expensive branch runs throughout
    rc, keys, err, _ = run(program, [OUT, "--seconds", "2"],
                           "%s=loopback-012" % OUT)
    expect_eq("exit status (0.12)", rc, 0)
    readers = keys.get("readers", [])
    check("readers -1 on 0.12", len(readers) == 1 and
          readers[0].startswith("-1 "), repr(readers))
    exp = keys.get("expensive", [])
    check("the expensive branch ran throughout on 0.12",
          len(exp) == 2 and exp[0] == "started", repr(exp))


def main():
    case, program = sys.argv[1], sys.argv[2:]
    if case == "capture":
        case_capture(program)
    elif case == "output":
        case_output(program)
    elif case == "webcam-on-demand":
        case_webcam_on_demand(program)
    else:
        sys.exit("unknown case " + case)
    print("1..%d" % len(checks))
    return 0 if all(checks) else 1


if __name__ == "__main__":
    sys.exit(main())
