#!/usr/bin/python3
"""live-watch.py PIPELINE DEVICE STEP... END

Runs PIPELINE (gst-launch syntax; its source named "src", YUY2 frames
into "appsink name=sink") and, while it plays, changes vivid from a
second handle as the steps say.  A STEP is "SECONDS:CTRL=VALUE[,...]",
run as "v4l2-ctl -d DEVICE -c CTRL=VALUE,..." that many seconds after
PLAYING; a VALUE "dv:NAME" is the index of vivid's dv_timings menu item
NAME (e.g. dv:1920x1080p30).  END is the seconds at which it stops.
Prints, with T the seconds since PLAYING:
  "step T CTRLS"                  a step begun (v4l2-ctl run)
  "frame T SIZE black|picture"    each frame, its bytes (black: YUY2
                                  limited-range black at every sample)
  "caps T WIDTHxHEIGHT RATE"      each new caps on the sink
  "warning T TEXT" / "info T TEXT"
  "status T signal=0|1 flags=a,b" each fgrab-input-status message
  "notify T NAME=VALUE"           contrast and dv-timings of the source
                                  (those it has) when notified
Exit 0 when it ran to END, 1 on a pipeline error.

Needs Debian's /usr/bin/python3 with python3-gi and gir1.2-gstreamer-1.0.
"""
import re
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


def dv_index(device, name):
    """The index of vivid's dv_timings menu item that starts with NAME."""
    out = subprocess.run(["v4l2-ctl", "-d", device, "--list-ctrls-menus"],
                         capture_output=True, text=True).stdout
    menu = out.split("dv_timings ", 1)[-1]
    for line in menu.splitlines()[1:]:
        m = re.match(r"\s+(\d+): (\S+)", line)
        if not m:
            break
        if m.group(2).startswith(name):
            return m.group(1)
    sys.exit("live-watch: vivid has no dv_timings item %s" % name)


def parse_steps(device, steps):
    out = []
    for step in steps:
        at, ctrls = step.split(":", 1)
        parts = []
        for ctrl in ctrls.split(","):
            name, value = ctrl.split("=", 1)
            if value.startswith("dv:"):
                value = dv_index(device, value[3:])
            parts.append("%s=%s" % (name, value))
        out.append((float(at), ",".join(parts)))
    return out


class Watch:
    def __init__(self, desc, device):
        self.device = device
        self.pipeline = Gst.parse_launch(desc)
        self.loop = GLib.MainLoop()
        self.start = time.monotonic()
        self.status = 0
        self.caps = None

    def now(self):
        return time.monotonic() - self.start

    def say(self, *words):
        print(" ".join([words[0], "%.3f" % self.now()] + list(words[1:])),
              flush=True)

    def on_sample(self, sink):
        sample = sink.emit("pull-sample")
        caps = sample.get_caps().to_string()
        if caps != self.caps:
            self.caps = caps
            s = sample.get_caps().get_structure(0)
            rate = s.get_fraction("framerate")
            self.say("caps", "%dx%d" % (s.get_value("width"),
                                        s.get_value("height")),
                     "%d/%d" % (rate[1], rate[2]) if rate[0] else "?")
        buf = sample.get_buffer()
        ok, info = buf.map(Gst.MapFlags.READ)
        if ok:
            kind = "black" if is_black(info.data) else "picture"
            self.say("frame", str(info.size), kind)
            buf.unmap(info)
        return Gst.FlowReturn.OK

    def on_message(self, bus, msg):
        t = msg.type
        if t == Gst.MessageType.WARNING:
            self.say("warning", msg.parse_warning()[0].message)
        elif t == Gst.MessageType.INFO:
            self.say("info", msg.parse_info()[0].message)
        elif t == Gst.MessageType.ERROR:
            self.say("error", msg.parse_error()[0].message)
            self.status = 1
            self.loop.quit()
        elif t == Gst.MessageType.ELEMENT:
            s = msg.get_structure()
            if s.get_name() == "fgrab-input-status":
                # PyGObject without gst-python's overrides cannot read a
                # GstValueArray: the flags are taken from the text
                flags = re.search(r"flags=\(string\)< ?([^>]*)>",
                                  s.to_string())
                names = re.findall(r"[a-z-]+", flags.group(1)) if flags else []
                self.say("status", "signal=%d" % s.get_value("signal"),
                         "flags=" + ",".join(names))
        return True

    def on_notify(self, src, pspec):
        self.say("notify", "%s=%s" % (pspec.name,
                                      src.get_property(pspec.name)))

    def step(self, ctrls):
        # said before: the change may take effect before v4l2-ctl returns
        self.say("step", ctrls)
        subprocess.run(["v4l2-ctl", "-d", self.device, "-c", ctrls],
                       check=False)
        return False

    def run(self, steps, end):
        sink = self.pipeline.get_by_name("sink")
        sink.set_property("emit-signals", True)
        sink.connect("new-sample", self.on_sample)
        src = self.pipeline.get_by_name("src")
        for name in ("contrast", "dv-timings"):
            if src.find_property(name):
                src.connect("notify::" + name, self.on_notify)
        bus = self.pipeline.get_bus()
        bus.add_signal_watch()
        bus.connect("message", self.on_message)
        self.pipeline.set_state(Gst.State.PLAYING)
        self.start = time.monotonic()
        for at, ctrls in steps:
            GLib.timeout_add(int(at * 1000), self.step, ctrls)
        GLib.timeout_add(int(end * 1000), self.loop.quit)
        self.loop.run()
        self.pipeline.set_state(Gst.State.NULL)
        return self.status


def main():
    Gst.init(None)
    desc, device = sys.argv[1], sys.argv[2]
    steps = parse_steps(device, sys.argv[3:-1])
    return Watch(desc, device).run(steps, float(sys.argv[-1]))


if __name__ == "__main__":
    sys.exit(main())
