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
"""Embedding fgrabsrc and fgrabsink from Python (GObject introspection).

  capture.py capture [--device PATH] [--frames N] [--caps CAPS]
                     [--readbuffers N] [--high-quality]
      Capture N frames with fgrabsrc into an appsink; print the negotiated
      caps, the rate the driver chose, and readbuffers/capturemode as the
      driver kept them.

  capture.py output [--device PATH] [--before N] [--after N]
                    [--from WxH] [--to WxH] [--format FMT] [--rate N/D]
      Write a videotestsrc sequence with fgrabsink, switching its size after
      N frames (the capsfilter's caps change, videotestsrc renegotiates,
      fgrabsink reopens the node); print what the device's own format was
      before the switch and at the end (VIDIOC_G_FMT on a second handle).

Output is "key: value" lines. Exit status: 0 on success, 1 on a pipeline
error (the bus ERROR is printed) or a short stream, 2 on bad arguments.

Needs Debian's python3-gi, gir1.2-gstreamer-1.0, gir1.2-gst-plugins-base-1.0
and the fgrab plugin on GST_PLUGIN_PATH.
"""

import argparse
import fcntl
import os
import struct
import sys

import gi

gi.require_version("Gst", "1.0")
gi.require_version("GstApp", "1.0")
# GstApp: loading it makes the appsink a GstApp.AppSink, with try_pull_sample
from gi.repository import Gst, GstApp  # noqa: E402,F401

# The longest wait for one frame or for the end of the stream: a guard
# against a device that never delivers, long enough for emulated machines.
FRAME_TIMEOUT = 20 * Gst.SECOND
STREAM_TIMEOUT = 120 * Gst.SECOND

V4L2_BUF_TYPE_VIDEO_CAPTURE = 1
V4L2_BUF_TYPE_VIDEO_OUTPUT = 2
# struct v4l2_format: __u32 type, then a union of 200 bytes aligned like a
# pointer (struct v4l2_window holds pointers)
_PTR = struct.calcsize("P")
V4L2_FORMAT_SIZE = _PTR + 200
# _IOWR('V', 4, struct v4l2_format)
VIDIOC_G_FMT = (3 << 30) | (V4L2_FORMAT_SIZE << 16) | (ord("V") << 8) | 4


def fourcc_str(v):
    return "".join(chr((v >> (8 * i)) & 0xFF) for i in range(4)).rstrip()


def device_format(path, buf_type):
    """The node's current format as VIDIOC_G_FMT reports it, from a handle
    of our own: what the driver really holds, not what GStreamer thinks."""
    buf = bytearray(V4L2_FORMAT_SIZE)
    struct.pack_into("I", buf, 0, buf_type)
    fd = os.open(path, os.O_RDWR | os.O_NONBLOCK)
    try:
        fcntl.ioctl(fd, VIDIOC_G_FMT, buf)
    finally:
        os.close(fd)
    width, height, pixfmt, _field, bpl, size = struct.unpack_from("6I", buf, _PTR)
    return "%dx%d %s bytesperline=%d sizeimage=%d" % (
        width, height, fourcc_str(pixfmt), bpl, size)


def caps_size(caps):
    s = caps.get_structure(0)
    return "%dx%d" % (s.get_value("width"), s.get_value("height"))


def print_bus_error(pipeline):
    """Prints the first ERROR on the bus; True if there was one."""
    msg = pipeline.get_bus().pop_filtered(Gst.MessageType.ERROR)
    if msg is None:
        return False
    err, dbg = msg.parse_error()
    print("error: %s: %s" % (msg.src.get_name(), err.message), file=sys.stderr)
    print("debug: %s" % (dbg or "(none)"), file=sys.stderr)
    return True


def make(factory, name):
    e = Gst.ElementFactory.make(factory, name)
    if e is None:
        print("error: element %s missing (is GST_PLUGIN_PATH set to the fgrab "
              "plugin?)" % factory, file=sys.stderr)
        sys.exit(2)
    return e


def flags_str(value):
    # GFlags come back as a Python flags object; V4L2 defines one bit
    return "high-quality" if int(value) & 1 else "none"


def start(pipeline):
    if pipeline.set_state(Gst.State.PLAYING) == Gst.StateChangeReturn.FAILURE:
        if not print_bus_error(pipeline):
            print("error: the pipeline did not start", file=sys.stderr)
        pipeline.set_state(Gst.State.NULL)
        sys.exit(1)


def run_capture(args):
    pipeline = Gst.Pipeline.new("capture")
    src = make("fgrabsrc", "src")
    filt = make("capsfilter", "filter")
    sink = make("appsink", "sink")
    if args.device:
        src.set_property("device", args.device)
    # requests; the driver decides, the properties read back what it kept
    src.set_property("readbuffers", args.readbuffers)
    src.set_property("capturemode", 1 if args.high_quality else 0)
    if args.caps:
        caps = Gst.Caps.from_string(args.caps)
        if caps is None:
            print("error: cannot parse caps '%s'" % args.caps, file=sys.stderr)
            return 2
        filt.set_property("caps", caps)
    sink.set_property("sync", False)
    sink.set_property("max-buffers", 4)
    for e in (src, filt, sink):
        pipeline.add(e)
    src.link(filt)
    filt.link(sink)

    start(pipeline)
    got, frame_bytes = 0, 0
    while got < args.frames:
        sample = sink.try_pull_sample(FRAME_TIMEOUT)
        if sample is None:
            break
        if got == 0:
            caps = sample.get_caps()
            ok, num, den = caps.get_structure(0).get_fraction("framerate")
            print("device: %s" % src.get_property("device"))
            print("card: %s" % (src.get_property("device-name") or "(unknown)"))
            print("caps: %s" % caps.to_string())
            print("framerate: %s" % ("%d/%d" % (num, den) if ok else "(none)"))
            print("readbuffers: %d" % src.get_property("readbuffers"))
            print("capturemode: %s" % flags_str(src.get_property("capturemode")))
            frame_bytes = sample.get_buffer().get_size()
        got += 1
    print("frames: %d" % got)
    print("frame-bytes: %d" % frame_bytes)
    ret = 0
    if got < args.frames:
        if not print_bus_error(pipeline):
            print("error: %s after %d of %d frames" % (
                "the stream ended" if sink.is_eos() else "no frame in time",
                got, args.frames), file=sys.stderr)
        ret = 1
    pipeline.set_state(Gst.State.NULL)
    return ret


def parse_size(text):
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError("want WIDTHxHEIGHT, got '%s'" % text)
    return w, h


def run_output(args):
    def caps_for(size):
        return Gst.Caps.from_string(
            "video/x-raw,format=%s,width=%d,height=%d,framerate=%s" % (
                args.format, size[0], size[1], args.rate))

    pipeline = Gst.Pipeline.new("output")
    src = make("videotestsrc", "src")
    filt = make("capsfilter", "filter")
    sink = make("fgrabsink", "sink")
    src.set_property("num-buffers", args.before + args.after)
    filt.set_property("caps", caps_for(args.size_from))
    if args.device:
        sink.set_property("device", args.device)
    # every frame reaches the device even where the machine is slower than
    # real time (the sink would drop late frames otherwise)
    sink.set_property("max-lateness", -1)
    for e in (src, filt, sink):
        pipeline.add(e)
    src.link(filt)
    filt.link(sink)
    device = sink.get_property("device")
    state = {"n": 0, "sizes": [], "before": None, "error": None}

    def on_buffer(pad, info):
        # runs in the streaming thread, before fgrabsink renders the buffer
        size = caps_size(pad.get_current_caps())
        if not state["sizes"] or state["sizes"][-1][0] != size:
            state["sizes"].append([size, 0])
        state["sizes"][-1][1] += 1
        state["n"] += 1
        if state["n"] == args.before:
            # the last frame at the first size: what does the device hold
            # now?  Then the next frame videotestsrc makes has the new size.
            try:
                state["before"] = device_format(device, V4L2_BUF_TYPE_VIDEO_OUTPUT)
            except OSError as e:
                state["error"] = "VIDIOC_G_FMT on %s: %s" % (device, e)
            # printed at once, so that a script can look at the device
            # while the second part streams
            print("device-before-switch: %s" % state["before"], flush=True)
            print("switching: %s -> %s after %d frames" % (
                "%dx%d" % args.size_from, "%dx%d" % args.size_to,
                args.before), flush=True)
            filt.set_property("caps", caps_for(args.size_to))
        return Gst.PadProbeReturn.OK

    def on_eos(pad, info):
        # the node is still open and holds the last format
        if info.get_event().type == Gst.EventType.EOS:
            try:
                state["after"] = device_format(device, V4L2_BUF_TYPE_VIDEO_OUTPUT)
            except OSError as e:
                state["error"] = "VIDIOC_G_FMT on %s: %s" % (device, e)
        return Gst.PadProbeReturn.OK

    spad = sink.get_static_pad("sink")
    spad.add_probe(Gst.PadProbeType.BUFFER, on_buffer)
    spad.add_probe(Gst.PadProbeType.EVENT_DOWNSTREAM, on_eos)

    start(pipeline)
    print("device: %s" % device, flush=True)
    msg = pipeline.get_bus().timed_pop_filtered(
        STREAM_TIMEOUT, Gst.MessageType.ERROR | Gst.MessageType.EOS)
    ret = 0
    if msg is None:
        print("error: no EOS within %d s" % (STREAM_TIMEOUT // Gst.SECOND),
              file=sys.stderr)
        ret = 1
    elif msg.type == Gst.MessageType.ERROR:
        err, dbg = msg.parse_error()
        print("error: %s: %s" % (msg.src.get_name(), err.message), file=sys.stderr)
        print("debug: %s" % (dbg or "(none)"), file=sys.stderr)
        ret = 1
    print("card: %s" % (sink.get_property("device-name") or "(unknown)"))
    print("writebuffers: %d" % sink.get_property("writebuffers"))
    print("outputmode: %s" % flags_str(sink.get_property("outputmode")))
    for size, n in state["sizes"]:
        print("sent: %d frames %s" % (n, size))
    print("device-at-end: %s" % state.get("after"))
    print("frames: %d" % state["n"])
    if state["error"]:
        print("error: %s" % state["error"], file=sys.stderr)
        ret = 1
    elif ret == 0 and state["n"] != args.before + args.after:
        print("error: %d of %d frames reached fgrabsink" % (
            state["n"], args.before + args.after), file=sys.stderr)
        ret = 1
    pipeline.set_state(Gst.State.NULL)
    return ret


def main():
    Gst.init(None)
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = p.add_subparsers(dest="mode", required=True)
    c = sub.add_parser("capture", help="fgrabsrc into an appsink")
    c.add_argument("--device", "-d")
    c.add_argument("--frames", "-n", type=int, default=10)
    c.add_argument("--caps", "-c")
    c.add_argument("--readbuffers", "-r", type=int, default=0)
    c.add_argument("--high-quality", "-q", action="store_true")
    o = sub.add_parser("output", help="videotestsrc into fgrabsink, "
                       "switching size mid-stream")
    o.add_argument("--device", "-d")
    o.add_argument("--before", type=int, default=10,
                   help="frames at the first size (default 10)")
    o.add_argument("--after", type=int, default=10,
                   help="frames at the second size (default 10)")
    o.add_argument("--from", dest="size_from", type=parse_size,
                   default=(320, 240))
    o.add_argument("--to", dest="size_to", type=parse_size, default=(640, 480))
    o.add_argument("--format", default="YUY2")
    o.add_argument("--rate", default="30/1")
    args = p.parse_args()
    if args.mode == "capture":
        if args.frames < 1 or args.readbuffers < 0:
            p.error("--frames must be at least 1, --readbuffers >= 0")
        return run_capture(args)
    if args.before < 1 or args.after < 1:
        p.error("--before and --after must be at least 1")
    return run_output(args)


if __name__ == "__main__":
    sys.exit(main())
