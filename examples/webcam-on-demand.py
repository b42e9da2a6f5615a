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
"""A virtual webcam that does the expensive work only while someone watches.

  webcam-on-demand.py DEVICE [--seconds N] [--size WxH]

fgrabsink writes into the v4l2loopback node DEVICE through an
input-selector fed by two branches: a still test pattern, always running
and cheap, and an "expensive" branch (a moving ball through videobalance,
standing for a screen capture or a decoder) that exists and runs only
while fgrabsink's readers property is above 0, as v4l2loopback 0.13 and
later report it (the fgrab-readers element message).  On v4l2loopback 0.12
(and any other driver) readers is -1, the driver does not say, and the
expensive branch runs all the time.

Prints "key: value" lines as things happen: "readers: N", "expensive:
started" and "expensive: stopped (N frames)".  Runs for N seconds (0, the
default: until SIGINT or SIGTERM).  Exit status: 0, 1 on a pipeline error
(printed), 2 on bad arguments.

Needs Debian's python3-gi, gir1.2-gstreamer-1.0 and the fgrab plugin on
GST_PLUGIN_PATH.
"""

import argparse
import signal
import sys

import gi

gi.require_version("Gst", "1.0")
from gi.repository import GLib, Gst  # noqa: E402

CHEAP = ("videotestsrc is-live=true pattern=smpte ! "
         "video/x-raw,format=YUY2,width={w},height={h},framerate=30/1")
EXPENSIVE = ("videotestsrc name=src is-live=true pattern=ball ! "
             "video/x-raw,format=YUY2,width={w},height={h},framerate=30/1 ! "
             "{filter} ! videoconvert ! capsfilter caps=\"video/x-raw,"
             "format=YUY2,width={w},height={h},framerate=30/1\"")


def say(key, value):
    print("%s: %s" % (key, value), flush=True)


class Webcam:
    def __init__(self, device, width, height):
        self.w, self.h = width, height
        self.pipeline = Gst.parse_launch(
            "input-selector name=sel sync-streams=false ! "
            "fgrabsink name=sink sync=false device=%s " % device +
            CHEAP.format(w=width, h=height) + " ! sel.sink_0")
        self.sel = self.pipeline.get_by_name("sel")
        self.cheap_pad = self.sel.get_static_pad("sink_0")
        self.branch = None
        self.branch_pad = None
        self.frames = 0
        self.readers = None
        self.failed = False
        self.loop = GLib.MainLoop()
        bus = self.pipeline.get_bus()
        bus.add_signal_watch()
        bus.connect("message", self.on_message)

    def start_expensive(self):
        if self.branch is not None:
            return
        # the filter that makes the branch cost something; identity where
        # the plugin is missing
        flt = ("videobalance saturation=1.5 hue=0.2"
               if Gst.ElementFactory.find("videobalance") else "identity")
        self.branch = Gst.parse_bin_from_description(
            EXPENSIVE.format(w=self.w, h=self.h, filter=flt), True)
        # its frames start at the pipeline's running time, not at 0, so
        # that a branch started late is not behind
        clock = self.pipeline.get_clock()
        if clock is not None:
            now = clock.get_time() - self.pipeline.get_base_time()
            self.branch.get_by_name("src").set_property(
                "timestamp-offset", max(now, 0))
        self.frames = 0
        src = self.branch.get_static_pad("src")
        src.add_probe(Gst.PadProbeType.BUFFER, self.count_frame)
        self.pipeline.add(self.branch)
        self.branch_pad = self.sel.request_pad_simple("sink_%u")
        src.link(self.branch_pad)
        self.branch.sync_state_with_parent()
        self.sel.set_property("active-pad", self.branch_pad)
        say("expensive", "started")

    def count_frame(self, pad, info):
        self.frames += 1
        return Gst.PadProbeReturn.OK

    def stop_expensive(self):
        if self.branch is None:
            return
        self.sel.set_property("active-pad", self.cheap_pad)
        self.branch.set_state(Gst.State.NULL)
        self.pipeline.remove(self.branch)
        self.sel.release_request_pad(self.branch_pad)
        self.branch = self.branch_pad = None
        say("expensive", "stopped (%d frames)" % self.frames)

    def on_readers(self, readers):
        if readers == self.readers:
            return
        self.readers = readers
        if readers < 0:
            say("readers", "-1 (the driver does not say: the expensive "
                "branch runs all the time)")
        else:
            say("readers", readers)
        if readers != 0:
            self.start_expensive()
        else:
            self.stop_expensive()

    def on_message(self, bus, msg):
        if msg.type == Gst.MessageType.ELEMENT:
            s = msg.get_structure()
            if s is not None and s.get_name() == "fgrab-readers":
                self.on_readers(s.get_value("readers"))
        elif msg.type == Gst.MessageType.ERROR:
            err, debug = msg.parse_error()
            say("error", "%s (%s)" % (err.message, debug))
            self.failed = True
            self.loop.quit()

    def run(self, seconds):
        if seconds > 0:
            GLib.timeout_add_seconds(seconds, self.loop.quit)
        for sig in (signal.SIGINT, signal.SIGTERM):
            GLib.unix_signal_add(GLib.PRIORITY_DEFAULT, sig, self.loop.quit)
        if self.pipeline.set_state(Gst.State.PLAYING) == \
                Gst.StateChangeReturn.FAILURE:
            self.failed = True
        else:
            self.loop.run()
        self.stop_expensive()
        self.pipeline.set_state(Gst.State.NULL)
        return 1 if self.failed else 0


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("device")
    p.add_argument("--seconds", type=int, default=0)
    p.add_argument("--size", default="640x480")
    args = p.parse_args()
    try:
        w, h = (int(x) for x in args.size.split("x"))
    except ValueError:
        p.error("--size takes WxH")
    Gst.init(None)
    return Webcam(args.device, w, h).run(args.seconds)


if __name__ == "__main__":
    sys.exit(main())
