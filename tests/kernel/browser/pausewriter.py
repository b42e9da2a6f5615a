#!/usr/bin/python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""A writer pipeline that can be paused from outside: gst-launch-1.0's
pipeline description, run in PLAYING, and

  SIGUSR1  the pipeline goes to PAUSED (the writer "pauses": no new frame
           reaches the sink; fgrabsink's keep-alive writes, if set)
  SIGUSR2  back to PLAYING
  SIGINT   EOS, and exit 0 once it went through (1 on an error)

  pausewriter.py PIPELINE-DESCRIPTION...

Prints "state: paused|playing" when a change is done, "keep-alive: on|off"
for fgrabsink's fgrab-keep-alive messages, and errors, as they happen.
"""

import signal
import sys

import gi

gi.require_version("Gst", "1.0")
from gi.repository import GLib, Gst  # noqa: E402


def say(text):
    print(text, flush=True)


class PauseWriter:
    def __init__(self, description):
        self.pipeline = Gst.parse_launch(description)
        self.loop = GLib.MainLoop()
        self.status = 0
        bus = self.pipeline.get_bus()
        bus.add_signal_watch()
        bus.connect("message", self.on_message)
        for signum, handler in ((signal.SIGUSR1, self.pause), (signal.SIGUSR2, self.play),
                                (signal.SIGINT, self.eos), (signal.SIGTERM, self.eos)):
            GLib.unix_signal_add(GLib.PRIORITY_HIGH, signum, handler)

    def change(self, state, name):
        if self.pipeline.set_state(state) == Gst.StateChangeReturn.FAILURE:
            say("error: could not go to %s" % name)
            self.status = 1
            self.loop.quit()
        else:
            self.pipeline.get_state(Gst.CLOCK_TIME_NONE)
            say("state: %s" % name)
        return GLib.SOURCE_CONTINUE

    def pause(self):
        return self.change(Gst.State.PAUSED, "paused")

    def play(self):
        return self.change(Gst.State.PLAYING, "playing")

    def eos(self):
        # a paused live pipeline does not carry EOS to its sink: play first
        self.pipeline.set_state(Gst.State.PLAYING)
        self.pipeline.send_event(Gst.Event.new_eos())
        return GLib.SOURCE_CONTINUE

    def on_message(self, _bus, msg):
        if msg.type == Gst.MessageType.EOS:
            self.loop.quit()
        elif msg.type == Gst.MessageType.ERROR:
            err, dbg = msg.parse_error()
            say("error: %s (%s)" % (err.message, dbg))
            self.status = 1
            self.loop.quit()
        elif msg.type == Gst.MessageType.ELEMENT and msg.has_name("fgrab-keep-alive"):
            say("keep-alive: %s" % ("on" if msg.get_structure().get_value("active") else "off"))

    def run(self):
        self.play()
        if self.status == 0:
            self.loop.run()
        self.pipeline.set_state(Gst.State.NULL)
        return self.status


def main():
    Gst.init(None)
    return PauseWriter(" ".join(sys.argv[1:])).run()


if __name__ == "__main__":
    sys.exit(main())
