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
"""Unit-tier network tests on the fake MPEG encoder card, in a network
namespace of their own (only its loopback interface, 127.0.0.1).

  run-network.py CASE SOURCE_DIR

  rtsp   examples/rtsp-server.py on the fake encoder node (a real MPEG-2
         program stream): GStreamer's rtspsrc and FFmpeg play the stream at
         the same time; each must get its frames at the card's size and
         rate, the server must have made one pipeline (the node opened
         once), and rtspsrc must go on after FFmpeg left.  Then the errors:
         a missing node and an output node end the server with exit 1 and
         the element's message.
  srt    docs/guide.md's remux recipe: the card's program stream remuxed to
         MPEG-TS (no re-encoding) into srtsink; srtsrc and FFmpeg's srt
         input receive at the same time, with frame counts, size and rate.

The lines run are docs/guide.md's recipes, checked to be there verbatim.
The MPEG stream's slices are filler (tests/fakedev/fakev4l2-encoder.c), so
the receivers count parsed frames (mpegvideoparse, FFmpeg -c:v copy), not
decoded pictures.  LD_PRELOAD and GST_PLUGIN_PATH_1_0 come from meson.
Prints TAP.
"""

import fcntl
import os
import re
import socket
import struct
import subprocess
import sys
import tempfile
import time

PYTHON = "/usr/bin/python3"
ENC = "/dev/video1"  # a fake encoder card, at the path the guide uses
OUT = "/dev/fake-net-video10"
MISSING = "/dev/fake-net-missing"
# the fake card's stream (tests/fakedev): NTSC MPEG-2 at 30000/1001
CARD_SIZE = "720x480"
CARD_RATE = "30000/1001"
HANG_GUARD = 60  # seconds, for one client or server
SRCDIR = None  # the recipes' paths are relative to the source tree

checks = []


def check(desc, ok, detail=""):
    checks.append(ok)
    print("%s %d - %s%s" % ("ok" if ok else "not ok", len(checks), desc,
                            "" if ok else " # " + detail), flush=True)


def expect_eq(desc, got, want):
    check("%s: %r" % (desc, want), got == want, "got %r" % (got,))


def note(text):
    for line in text.splitlines():
        print("# " + line, flush=True)


# ------------------------------------------------------------ the namespace
def enter_netns():
    """Re-runs this script in a network namespace of its own (unshare -n as
    root, else with a user namespace); inside, brings lo up.  A machine
    where neither works fails the test: it is not skipped."""
    if os.environ.get("FGRAB_NET_NS") != "1":
        env = dict(os.environ, FGRAB_NET_NS="1")
        cmd = ["unshare", "--net"]
        if os.getuid() != 0:
            cmd.append("--map-root-user")
        try:
            p = subprocess.run(cmd + [sys.executable] + sys.argv, env=env)
        except OSError as e:
            print("1..1\nnot ok 1 - a network namespace of our own # %s" % e)
            sys.exit(1)
        sys.exit(p.returncode)
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    ifr = struct.pack("16sH", b"lo", 0)
    flags = struct.unpack("16sH", fcntl.ioctl(s, 0x8913, ifr)[:18])[1]  # SIOCGIFFLAGS
    fcntl.ioctl(s, 0x8914, struct.pack("16sH", b"lo", flags | 1))  # SIOCSIFFLAGS IFF_UP
    s.close()
    names = sorted(n for _, n in socket.if_nameindex())
    expect_eq("a network namespace of our own: its interfaces", names, ["lo"])


# ------------------------------------------------------------------ helpers
def guide_lines(srcdir):
    with open(os.path.join(srcdir, "docs", "guide.md")) as f:
        return set(line.strip() for line in f)


def expect_in_guide(lines, line):
    check("recipe in docs/guide.md verbatim: %s" % line, line in lines,
          "not found; docs/guide.md and this test must agree")


def start(cmd, log, env):
    """Starts a shell line (a recipe as the guide writes it) or an argv."""
    f = open(log, "w")
    if isinstance(cmd, str):
        argv = ["bash", "-c", "exec " + cmd]
    else:
        argv = cmd
    p = subprocess.Popen(argv, stdout=f, stderr=subprocess.STDOUT,
                         stdin=subprocess.DEVNULL, env=env, cwd=SRCDIR)
    p.log = log
    p.logfile = f
    return p


def finish(p, guard=HANG_GUARD):
    """Waits for a client to end by itself; kills it after @guard s (its
    status is then -9).  Returns (status, log text, time it ended)."""
    try:
        rc = p.wait(timeout=guard)
    except subprocess.TimeoutExpired:
        p.kill()
        rc = p.wait()
    p.logfile.close()
    with open(p.log, errors="replace") as f:
        return rc, f.read(), time.monotonic()


def wait_for(path, regex, seconds):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        with open(path, errors="replace") as f:
            m = re.search(regex, f.read(), re.M)
        if m:
            return m
        time.sleep(0.1)
    return None


def gst_client(text):
    """What a gst-launch-1.0 -v client ending in 'fakesink ... silent=false'
    got: (frames, WxH, rate) from the sink's caps event and chain messages."""
    frames = len(re.findall(r"GstFakeSink:[^:]*: last-message = chain", text))
    # the caps event the sink got (its last-message): gst-launch does not
    # always print the pad's caps notification; GStreamer 1.28 names the
    # field's type "caps", earlier ones "GstCaps"
    m = re.search(r'GstFakeSink:[^:\n]*: last-message = event .*?GstEventCaps, '
                  r'caps=\((?:GstCaps|caps)\)"([^"]*)"', text.replace("\\", ""))
    caps = m.group(1) if m else ""
    w = re.search(r"width=\(int\)(\d+)", caps)
    h = re.search(r"height=\(int\)(\d+)", caps)
    r = re.search(r"framerate=\(fraction\)(\d+/\d+)", caps)
    size = "%sx%s" % (w.group(1), h.group(1)) if w and h else "?"
    return frames, size, r.group(1) if r else "?"


def ffmpeg_client(text):
    """What an 'ffmpeg ... -f null -' client got: (frames, WxH, rate) from
    its last progress line and its output stream's description."""
    text = text.replace("\r", "\n")
    counts = re.findall(r"^frame=\s*(\d+)", text, re.M)
    out = text.split("Output #0", 1)
    m = re.search(r"Stream #0:0.*?: Video: .*?, (\d+)x(\d+)\b.*?, ([\d.]+) fps",
                  out[1] if len(out) > 1 else "")
    return (int(counts[-1]) if counts else 0,
            "%sx%s" % (m.group(1), m.group(2)) if m else "?",
            m.group(3) if m else "?")


def client_report(name, rc, frames, size, rate):
    # the issue note quotes these lines
    note("%s: exit %d, %d frames %s at %s fps" % (name, rc, frames, size, rate))


def expect_client(name, rc, decoded, want_frames, want_rate, output):
    """Checks a client that decoded @decoded (frames, size, rate) of the
    card's stream: exit 0, @want_frames frames of the card's size at
    @want_rate; shows the end of its @output when it fell short."""
    frames, size, rate = decoded
    client_report(name, rc, frames, size, rate)
    expect_eq(name + " exit status", rc, 0)
    expect_eq(name + " frames", frames, want_frames)
    expect_eq(name + " frame size (the card's)", size, CARD_SIZE)
    expect_eq(name + " frame rate (the card's)", rate, want_rate)
    if rc != 0 or frames != want_frames:
        note(output[-3000:])


def fake_env(tmp):
    env = dict(os.environ)
    env["FAKEV4L2_DEVICES"] = "%s=encoder;%s=output" % (ENC, OUT)
    env["FAKEV4L2_REPORT"] = os.path.join(tmp, "report.txt")
    return env


def no_preload(env):
    # FFmpeg needs no fake device: it is a network client only
    env = dict(env)
    env.pop("LD_PRELOAD", None)
    return env


# --------------------------------------------------------------------- rtsp
RTSP_SERVER = "examples/rtsp-server.py --device /dev/video1 --port 8554 --mount card"
RTSP_URL = "rtsp://127.0.0.1:8554/card"
RTSP_N_GST = 150
RTSP_GST = ("gst-launch-1.0 -v rtspsrc location=rtsp://127.0.0.1:8554/card "
            "! rtpmp2tdepay ! tsdemux ! mpegvideoparse ! fakesink num-buffers=150 "
            "sync=false silent=false")
RTSP_N_FFMPEG = 15
RTSP_FFMPEG = ("ffmpeg -nostdin -rtsp_transport tcp -i rtsp://127.0.0.1:8554/card "
               "-c:v copy -frames:v 15 -f null -")


def case_rtsp(srcdir):
    server = os.path.join(srcdir, "examples", "rtsp-server.py")
    lines = guide_lines(srcdir)
    for line in (RTSP_SERVER, RTSP_GST, RTSP_FFMPEG):
        expect_in_guide(lines, line)
    gst_line, ff_line = RTSP_GST, RTSP_FFMPEG
    with tempfile.TemporaryDirectory() as tmp:
        env = fake_env(tmp)
        srv = start(RTSP_SERVER, os.path.join(tmp, "server.log"), env)
        m = wait_for(srv.log, r"^url: (.*)$", 30)
        check("the server listens and prints its URL", m is not None
              and m.group(1) == RTSP_URL, "got %r" % (m.group(1) if m else None))
        if m is None:
            srv.kill()
            note(finish(srv)[1])
            return
        gst = start(gst_line, os.path.join(tmp, "rtspsrc.log"), env)
        # FFmpeg joins once rtspsrc gets frames, and leaves long before
        # rtspsrc's 150 (5 s)
        check("rtspsrc gets frames", wait_for(gst.log, r"last-message = chain",
                                              30) is not None)
        ff = start(ff_line, os.path.join(tmp, "ffmpeg.log"), no_preload(env))
        ff_rc, ff_text, ff_end = finish(ff)
        gst_rc, gst_text, gst_end = finish(gst)
        srv.send_signal(15)
        srv_rc, srv_text, _ = finish(srv, 20)
        note("$ " + gst_line)
        note("$ " + ff_line)
        note("server: $ " + RTSP_SERVER)
        note(srv_text)

        expect_client("rtspsrc", gst_rc, gst_client(gst_text), RTSP_N_GST,
                      CARD_RATE, gst_text)
        expect_client("ffmpeg (rtsp, tcp)", ff_rc, ffmpeg_client(ff_text),
                      RTSP_N_FFMPEG, "29.97", ff_text)

        check("rtspsrc went on after FFmpeg left (%.1f s later)" % (gst_end - ff_end),
              gst_end > ff_end + 0.2, "rtspsrc ended first")
        expect_eq("the server made one pipeline for both clients",
                  len(re.findall(r"^capture: started", srv_text, re.M)), 1)
        expect_eq("two clients connected",
                  len(re.findall(r"^client: connected", srv_text, re.M)), 2)
        expect_eq("the server's exit status after SIGTERM", srv_rc, 0)
        check("the server says it stopped on SIGTERM",
              "stopped: SIGTERM" in srv_text, srv_text[-500:])
        with open(env["FAKEV4L2_REPORT"]) as f:
            report = f.read()
        check("the card was read by the server", "device %s " % ENC in report,
              report)

    # errors: a clear message, exit 1, before listening
    for dev, what in ((MISSING, "a missing node"), (OUT, "an output node")):
        with tempfile.TemporaryDirectory() as tmp:
            p = subprocess.run([PYTHON, server, "--device", dev],
                               env=fake_env(tmp), capture_output=True,
                               text=True, timeout=HANG_GUARD)
        note("$ rtsp-server.py --device %s -> exit %d" % (dev, p.returncode))
        note(p.stdout + p.stderr)
        expect_eq("%s: exit status" % what, p.returncode, 1)
        check("%s: the message names the node" % what,
              re.search(r"^error: .*%s" % re.escape(dev), p.stderr, re.M)
              is not None, p.stderr.strip())
        check("%s: no URL printed" % what, "url:" not in p.stdout, p.stdout)


# ---------------------------------------------------------------------- srt
SRT_SEND = ('gst-launch-1.0 -e fgrabsrc device=/dev/video1 ! mpegpsdemux '
            '! mpegvideoparse ! mpegtsmux alignment=7 ! srtsink '
            'uri="srt://:8888?mode=listener" wait-for-connection=false')
SRT_N = 60
SRT_RECV_GST = ('gst-launch-1.0 -v srtsrc uri=srt://127.0.0.1:8888 ! tsdemux '
                '! mpegvideoparse ! fakesink num-buffers=60 sync=false silent=false')
SRT_RECV_FFMPEG = ('ffmpeg -nostdin -i srt://127.0.0.1:8888 -c:v copy '
                   '-frames:v 60 -f null -')


def case_srt(srcdir):
    lines = guide_lines(srcdir)
    for line in (SRT_SEND, SRT_RECV_GST, SRT_RECV_FFMPEG):
        expect_in_guide(lines, line)
    with tempfile.TemporaryDirectory() as tmp:
        env = fake_env(tmp)
        snd = start(SRT_SEND, os.path.join(tmp, "sender.log"), env)
        m = wait_for(snd.log, r"^Setting pipeline to PLAYING|^ERROR", 30)
        # srtsink listens once the pipeline plays
        time.sleep(1)
        gst = start(SRT_RECV_GST, os.path.join(tmp, "srtsrc.log"), env)
        ff = start(SRT_RECV_FFMPEG, os.path.join(tmp, "ffmpeg.log"),
                   no_preload(env))
        gst_rc, gst_text, _ = finish(gst)
        ff_rc, ff_text, _ = finish(ff)
        snd.send_signal(2)
        snd_rc, snd_text, _ = finish(snd, 20)
        note("$ " + SRT_SEND)
        note(snd_text)
        note("$ " + SRT_RECV_GST)
        note("$ " + SRT_RECV_FFMPEG)

        expect_client("srtsrc", gst_rc, gst_client(gst_text), SRT_N,
                      CARD_RATE, gst_text)
        expect_client("ffmpeg (srt)", ff_rc, ffmpeg_client(ff_text), SRT_N,
                      "29.97", ff_text)

        check("the sender was playing", m is not None and m.group(0).startswith(
            "Setting"), snd_text[-1000:])
        expect_eq("sender exit status after SIGINT (-e: EOS)", snd_rc, 0)
        check("no error from the sender", "\nERROR" not in "\n" + snd_text,
              snd_text[-1000:])


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in ("rtsp", "srt"):
        print("usage: run-network.py rtsp|srt SOURCE_DIR", file=sys.stderr)
        return 2
    global SRCDIR
    SRCDIR = os.path.abspath(sys.argv[2])
    enter_netns()
    {"rtsp": case_rtsp, "srt": case_srt}[sys.argv[1]](sys.argv[2])
    print("1..%d" % len(checks))
    return 0 if checks and all(checks) else 1


if __name__ == "__main__":
    sys.exit(main())
