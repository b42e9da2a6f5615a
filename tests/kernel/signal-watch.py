#!/usr/bin/python3
"""signal-watch.py PIPELINE DEVICE LOSS_AT BACK_AT END_AT

Runs PIPELINE (gst-launch syntax; YUY2 frames into "appsink name=sink")
and, while it plays, sets vivid's "Standard Signal Mode" control on
DEVICE from a second handle (v4l2-ctl): 1 (no signal) LOSS_AT seconds
after PLAYING, 0 (the current standard) at BACK_AT; it stops at END_AT.
Prints, with T the seconds since PLAYING:
  "mode T VALUE"                 when the control was set
  "frame T black|picture"        for each frame (black: YUY2 limited-range
                                 black at every sampled byte)
  "warning T TEXT" / "info T TEXT" for the pipeline's warnings and infos
  "status T signal=0|1 flags=a,b"  for each fgrab-input-status message
Exit 0 when it ran to END_AT, 1 on a pipeline error.

Needs Debian's /usr/bin/python3 with python3-gi and gir1.2-gstreamer-1.0.
"""
import subprocess
import sys
import time

import gi

gi.require_version("Gst", "1.0")
from gi.repository import GLib, Gst  # noqa: E402


def is_black(data):
    """YUY2 limited-range black (Y 16, U and V 128) at every sampled byte."""
    for i in range(0, len(data) - 4, 4 * 97):
        y0, u, y1, v = data[i], data[i + 1], data[i + 2], data[i + 3]
        if max(abs(y0 - 16), abs(y1 - 16), abs(u - 128), abs(v - 128)) > 3:
            return False
    return True


def main():
    desc, device = sys.argv[1], sys.argv[2]
    loss_at, back_at, end_at = (float(a) for a in sys.argv[3:6])
    Gst.init(None)
    pipeline = Gst.parse_launch(desc)
    loop = GLib.MainLoop()
    start = [None]
    status = [0]

    def now():
        return time.monotonic() - start[0] if start[0] else 0.0

    def on_sample(sink):
        sample = sink.emit("pull-sample")
        buf = sample.get_buffer()
        ok, info = buf.map(Gst.MapFlags.READ)
        if ok:
            kind = "black" if is_black(info.data) else "picture"
            buf.unmap(info)
            print("frame %.3f %s" % (now(), kind), flush=True)
        return Gst.FlowReturn.OK

    def on_message(bus, msg):
        t = msg.type
        if t == Gst.MessageType.WARNING:
            print("warning %.3f %s" % (now(), msg.parse_warning()[0].message),
                  flush=True)
        elif t == Gst.MessageType.INFO:
            print("info %.3f %s" % (now(), msg.parse_info()[0].message),
                  flush=True)
        elif t == Gst.MessageType.ERROR:
            print("error %.3f %s" % (now(), msg.parse_error()[0].message),
                  flush=True)
            status[0] = 1
            loop.quit()
        elif t == Gst.MessageType.ELEMENT:
            s = msg.get_structure()
            if s.get_name() == "fgrab-input-status":
                flags = s.get_value("flags")
                print("status %.3f signal=%d flags=%s" % (
                    now(), s.get_value("signal"),
                    ",".join(flags) if flags else ""), flush=True)
        return True

    def set_mode(value):
        subprocess.run(["v4l2-ctl", "-d", device, "-c",
                        "standard_signal_mode=%d" % value], check=False)
        print("mode %.3f %d" % (now(), value), flush=True)
        return False

    sink = pipeline.get_by_name("sink")
    sink.set_property("emit-signals", True)
    sink.connect("new-sample", on_sample)
    bus = pipeline.get_bus()
    bus.add_signal_watch()
    bus.connect("message", on_message)
    pipeline.set_state(Gst.State.PLAYING)
    start[0] = time.monotonic()
    GLib.timeout_add(int(loss_at * 1000), set_mode, 1)
    GLib.timeout_add(int(back_at * 1000), set_mode, 0)
    GLib.timeout_add(int(end_at * 1000), loop.quit)
    loop.run()
    pipeline.set_state(Gst.State.NULL)
    set_mode(0)
    return status[0]


if __name__ == "__main__":
    sys.exit(main())
