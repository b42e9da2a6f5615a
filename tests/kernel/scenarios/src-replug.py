#!/usr/bin/python3
# fgrab
# Copyright (C) 2026 The fgrab authors
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Run by src-replug.sh inside the VM: an application holds fgrabsrc in READY
# (the node open) while vivid's node is unplugged (its "disconnect" control),
# then asks for PLAYING: that must fail with the element's error, not hang.
# The application goes back to NULL, vivid is removed and loaded again (the
# node is re-added), and the same element captures again. Prints PASS/FAIL
# lines; exit status 1 if any check failed.
import os
import subprocess
import sys
import time

import gi

gi.require_version("Gst", "1.0")
from gi.repository import Gst  # noqa: E402

DEV = "/dev/video0"
VIVID = sys.argv[1].split() if len(sys.argv) > 1 else ["n_devs=1", "node_types=0x101"]
fails = 0


def check(ok, desc):
    global fails
    print(("  PASS: " if ok else "  FAIL: ") + desc, flush=True)
    if not ok:
        fails += 1


def fds():
    return len(os.listdir("/proc/self/fd"))


def run(*cmd):
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    print("    $ %s -> %d %s" % (" ".join(cmd), r.returncode, (r.stdout + r.stderr).strip()[:200]),
          flush=True)
    return r.returncode


def wait_msg(pipe, types, seconds):
    return pipe.get_bus().timed_pop_filtered(int(seconds * Gst.SECOND), types)


def capture(pipe, counter, what):
    """PLAYING until EOS; checks frames arrived."""
    counter[0] = 0
    pipe.set_state(Gst.State.PLAYING)
    msg = wait_msg(pipe, Gst.MessageType.EOS | Gst.MessageType.ERROR, 60)
    if msg is not None and msg.type == Gst.MessageType.ERROR:
        err, dbg = msg.parse_error()
        print("    error: %s (%s)" % (err.message, dbg), flush=True)
    check(msg is not None and msg.type == Gst.MessageType.EOS,
          "%s: the capture ends with EOS" % what)
    check(counter[0] == 5, "%s: 5 frames arrived (got %d)" % (what, counter[0]))
    pipe.set_state(Gst.State.NULL)


Gst.init(None)
pipe = Gst.parse_launch("fgrabsrc name=src device=%s num-buffers=5 ! fakesink name=sink "
                        "signal-handoffs=true" % DEV)
counter = [0]


def on_handoff(sink, buf, pad):
    counter[0] += 1


pipe.get_by_name("sink").connect("handoff", on_handoff)

capture(pipe, counter, "before the unplug")
before = fds()

ret = pipe.set_state(Gst.State.READY)
check(ret == Gst.StateChangeReturn.SUCCESS, "READY opens the node")
check(run("v4l2-ctl", "-d", DEV, "-c", "disconnect=1") == 0,
      "vivid's node is unplugged while fgrabsrc holds it in READY")
t0 = time.monotonic()
pipe.set_state(Gst.State.PLAYING)
msg = wait_msg(pipe, Gst.MessageType.ERROR | Gst.MessageType.EOS, 30)
took = time.monotonic() - t0
check(msg is not None and msg.type == Gst.MessageType.ERROR,
      "PLAYING on the unplugged node posts an error (after %.1f s)" % took)
if msg is not None and msg.type == Gst.MessageType.ERROR:
    err, dbg = msg.parse_error()
    print("    error: %s" % err.message, flush=True)
    print("    debug: %s" % dbg, flush=True)
    check("/dev/video0" in err.message and ("disconnected" in err.message
                                            or "unplugged" in err.message
                                            or "gone" in err.message),
          "the error names the device and says it is gone")
t0 = time.monotonic()
ret = pipe.set_state(Gst.State.NULL)
check(ret == Gst.StateChangeReturn.SUCCESS and time.monotonic() - t0 < 10,
      "NULL after the error, promptly")
check(fds() == before, "no fd left open (%d, before %d)" % (fds(), before))

# the node is re-added: the module removed and loaded again
check(run("rmmod", "vivid") == 0, "vivid removed (no fd of ours holds it)")
check(run("modprobe", "vivid", *VIVID) == 0, "vivid loaded again")
for _ in range(50):
    if os.path.exists(DEV):
        break
    time.sleep(0.1)
capture(pipe, counter, "after the node came back")
check(fds() == before, "no fd left open (%d, before %d)" % (fds(), before))
sys.exit(1 if fails else 0)
