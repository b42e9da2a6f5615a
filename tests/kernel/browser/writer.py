# SPDX-License-Identifier: LGPL-2.1-or-later
"""The camera picture the browser group writes, and the writers.

The picture: videotestsrc's SMPTE bars (100 % colours) with its moving
ball in the bottom-right corner (compositor), so that the bars' colours
can be checked where they are still and the ball's square changes from one
frame to the next.  Raw formats are written in BT.601 limited range, as
browsers read a webcam's YUV; MJPEG as JFIF (BT.601 full range): the
picture is composed in RGB and converted (videotestsrc of GStreamer 1.22
writes limited range whatever range its caps say).

  pipeline(sink, fmt, w, h, dev, props) -> gst-launch-1.0 arguments
  Writer(...)                     one writer process: start(), stop();
                                  pausable: pause(), resume() (pausewriter.py)
  node_says_capture(dev)          QUERYCAP of a new handle
"""

import fcntl
import os
import signal
import struct
import subprocess
import sys
import time

FORMATS = ["YUY2", "I420", "NV12", "MJPEG"]
# sink -> (element, the colorimetry its raw caps name).  Both write BT.601
# limited range; v4l2sink takes only what v4l2loopback answers to its
# TRY_FMT probes (0.12: 2:4:7:1, sRGB's transfer and primaries, the BT.601
# matrix) and refuses "bt601" or "bt709" caps (not-negotiated).
SINKS = {
    "fgrabsink": ("fgrabsink device={dev}", "bt601"),
    # the anchor: GStreamer's own V4L2 sink with streaming I/O
    "v4l2sink": ("v4l2sink device={dev} io-mode=mmap", "2:4:7:1"),
}
FPS = 10  # enough to see it move; leaves the VM's CPUs to the browser

# The bars at the top (the first two thirds of the height), left to right.
BARS = [
    ("white", (255, 255, 255)),
    ("yellow", (255, 255, 0)),
    ("cyan", (0, 255, 255)),
    ("green", (0, 255, 0)),
    ("magenta", (255, 0, 255)),
    ("red", (255, 0, 0)),
    ("blue", (0, 0, 255)),
]


def bar_points(w, h):
    """The centre of each bar, at a third of the height."""
    return [[int((i + 0.5) * w / len(BARS)), h // 3] for i in range(len(BARS))]


def ball_square(w, h):
    """x, y, width, height of the moving ball's square."""
    b = h // 4
    return [w - b, h - b, b, b]


def pipeline(sink, fmt, w, h, dev, props=""):
    """props: more properties of the sink ("keep-alive=repeat")."""
    x, y, b, _ = ball_square(w, h)
    element, colorimetry = SINKS[sink]
    rate = "framerate=%d/1" % FPS
    if fmt == "MJPEG":
        out = ("video/x-raw,format=BGRx ! videoconvert"
               " ! video/x-raw,format=I420,colorimetry=1:4:0:0 ! jpegenc quality=95 ! image/jpeg")
    else:
        # chroma-site as compositor ends up saying it: without it, a slow
        # host gets caps without it first and then a second caps event
        out = "video/x-raw,format=%s,colorimetry=%s,chroma-site=jpeg" % (fmt, colorimetry)
        if sink == "v4l2sink":
            # v4l2sink's one colorimetry, asked of compositor itself, made
            # its negotiation fail at random (not-negotiated from the ball's
            # source): videoconvert takes it out of compositor's hands
            out = "video/x-raw,format=%s ! videoconvert ! %s" % (fmt, out)
    line = ("videotestsrc pattern=smpte is-live=true ! video/x-raw,width=%d,height=%d,%s"
            " ! compositor name=mix sink_1::xpos=%d sink_1::ypos=%d ! %s ! %s"
            " videotestsrc pattern=ball is-live=true ! video/x-raw,width=%d,height=%d,%s ! mix."
            % (w, h, rate, x, y, out, " ".join([element.format(dev=dev), props]), b, b, rate))
    return line.split()


VIDIOC_QUERYCAP = 0x80685600
CAP_VIDEO_CAPTURE = 0x1
CAP_VIDEO_OUTPUT = 0x2


def node_caps(dev):
    """The device caps a new handle of dev announces (0 if it cannot be opened)."""
    try:
        fd = os.open(dev, os.O_RDWR | os.O_NONBLOCK)
    except OSError:
        return 0
    try:
        buf = bytearray(104)
        fcntl.ioctl(fd, VIDIOC_QUERYCAP, buf)
        return struct.unpack_from("<I", buf, 88)[0]
    except OSError:
        return 0
    finally:
        os.close(fd)


def node_says_capture(dev):
    c = node_caps(dev)
    return bool(c & CAP_VIDEO_CAPTURE) and not c & CAP_VIDEO_OUTPUT


PAUSEWRITER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "pausewriter.py")


class Writer:
    """gst-launch-1.0 -e writing the picture to dev (SIGINT: EOS, exit);
    line is its pipeline.  pausable: pausewriter.py runs the same line
    instead, and pause() and resume() take it to PAUSED and back."""

    def __init__(self, sink, fmt, w, h, dev, log, props="", pausable=False):
        self.line = " ".join(pipeline(sink, fmt, w, h, dev, props))
        # -f: no fault handler, which would keep a crashed writer spinning
        self.argv = ["gst-launch-1.0", "-e", "-f"] + self.line.split()
        if pausable:
            self.argv = [sys.executable, PAUSEWRITER] + self.line.split()
        self.dev, self.log, self.proc = dev, log, None

    def start(self, timeout):
        """Starts it; whether the node announced capture (alone) within
        timeout s, the sign that the writer configured it and streams."""
        env = dict(os.environ, GST_DEBUG=os.environ.get("GST_DEBUG", "fgrabsink:4,v4l2sink:3"))
        with open(self.log, "w") as out:
            self.proc = subprocess.Popen(self.argv, stdin=subprocess.DEVNULL, stdout=out,
                                         stderr=subprocess.STDOUT, env=env)
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if node_says_capture(self.dev):
                return True
            if self.proc.poll() is not None:
                return False
            time.sleep(0.1)
        return False

    def stop(self, timeout=30):
        """Ends it with SIGINT (EOS); its exit status (-9: had to be killed)."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
        try:
            return self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            return -9

    def pause(self):
        self.proc.send_signal(signal.SIGUSR1)

    def resume(self):
        self.proc.send_signal(signal.SIGUSR2)

    def wait_for(self, text, timeout):
        """Whether a line of its output has text, within timeout s."""
        end = time.monotonic() + timeout
        while True:
            with open(self.log, errors="replace") as f:
                if any(text in line for line in f):
                    return True
            if time.monotonic() > end or self.proc.poll() is not None:
                return False
            time.sleep(0.1)

    def tail(self, n=15):
        with open(self.log, errors="replace") as f:
            return f.read().splitlines()[-n:]
