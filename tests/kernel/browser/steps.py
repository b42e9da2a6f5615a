# SPDX-License-Identifier: LGPL-2.1-or-later
"""The browser group's steps that every case shares: PASS/FAIL/SEEN lines,
a page call, a writer started and stopped, getUserMedia, and the look at
the frames (the bars' colours, the ball's movement).

  Report, Case, call(), labels(), start_writer(), stop_writer(),
  open_camera(), look() (look_colours(), look_motion())
"""

import os

import writer
from pageserver import PageTimeout

OPEN_S = 120  # measured 0.1-9 s (7-31 s in the trial)
CALL_S = 60
WRITER_S = 30
TOLERANCE = 6  # /255, each channel: YUV -> RGB rounding; JPEG's quantisation
# live: the ball's square changed LIVE_CHANGES times, looked at for LIVE_MS
# and up to LIVE_MAX_MS (Chromium presented 0.5-2 frames a second at
# 1280x720 under TCG on a loaded host)
LIVE_MS = 1000
LIVE_MAX_MS = 20000
LIVE_CHANGES = 2


class Report:
    """PASS/FAIL lines as lib.sh prints them; SEEN for the anchor's."""

    def __init__(self):
        self.checks = 0
        self.failed = []

    def section(self, text):
        print("\n=== %s" % text, flush=True)

    def info(self, text):
        print("    %s" % text, flush=True)

    def check(self, checked, ok, text):
        if not checked:
            print("  SEEN: %s: %s" % (text, "yes" if ok else "NO"), flush=True)
            return ok
        self.checks += 1
        print("  %s: %s" % ("PASS" if ok else "FAIL", text), flush=True)
        if not ok:
            self.failed.append(text)
        return ok



class Case:
    """One writer (sink, format, properties) on the page: what the page saw
    at each step, for the tables.  checked: its steps are checks (PASS or
    FAIL), else recorded (SEEN); follows: whether the browser's
    enumerateDevices is checked to follow the node."""

    def __init__(self, sink, fmt, dev, logdir, checked, follows=False, props="", pausable=False):
        self.sink, self.fmt, self.dev, self.logdir = sink, fmt, dev, logdir
        self.checked, self.follows = checked, follows
        self.props, self.pausable = props, pausable
        self.tag = " ".join(x for x in (sink, props, fmt) if x)
        self.listed = self.gone = None  # None: the writer did not start
        self.writer_gone = ""  # the open track's state once its writer stopped
        self.opened = {}  # step -> getUserMedia ms; a step that failed is absent
        self.colours = {}  # step -> worst channel error
        self.live = {}  # step -> picture changes a second; 0 if it did not move


def call(page, rep, op, checked=True, timeout=CALL_S, **args):
    """A page call; None (and a line saying why) if it timed out or threw."""
    try:
        res = page.call(op, timeout, **args)
    except PageTimeout as e:
        rep.check(checked, False, str(e))
        return None
    if "error" in res:
        rep.info("%s: %s" % (op, res["error"]))
        return None
    return res


def labels(page, rep, checked=True):
    res = call(page, rep, "devices", checked)
    return None if res is None else [d["label"] for d in res["devices"]]


def look(page, rep, case, step, w, h):
    """Colours and movement of the open camera at w x h."""
    look_colours(page, rep, case, step, w, h)
    look_motion(page, rep, case, step, w, h)


# The writer's compositor (live) sends its background, a grey checker, for
# an input whose first buffer is late, so the first frames after a writer
# starts may have no bars: the colours are looked at in up to FIRST_FRAMES
# frames after an open; a writer whose frames are wrong is wrong in all.
FIRST_FRAMES = 5


def bar_error(res):
    """The worst channel error of a sample's bar colours."""
    return max(abs(g - e) for got, (_, want) in zip(res["colours"], writer.BARS)
               for g, e in zip(got, want))


def look_colours(page, rep, case, step, w, h, timeout_ms=20000, frames=FIRST_FRAMES):
    """The bars' colours in the next frames the page presents (up to
    frames, until one has them); whether they are right."""
    tag = "%s %s" % (case.tag, step)
    for n in range(1, frames + 1):
        res = call(page, rep, "sample", case.checked, points=writer.bar_points(w, h), timeout_ms=timeout_ms)
        if res is None:
            return rep.check(case.checked, False, "%s: a frame drawn to the canvas" % tag)
        worst = bar_error(res)
        if worst <= TOLERANCE:
            break
    case.colours[step] = worst
    size = rep.check(case.checked, (res["width"], res["height"]) == (w, h),
                     "%s: frame drawn at %dx%d" % (tag, res["width"], res["height"]))
    return rep.check(case.checked, worst <= TOLERANCE, "%s: bar colours within %d/255 (worst %d, frame %d of %d"
                     " looked at): %s" % (tag, TOLERANCE, worst, n, frames, " ".join(
                         "%s=%s" % (n_, ",".join(map(str, c)))
                         for c, (n_, _) in zip(res["colours"], writer.BARS)))) and size


def look_motion(page, rep, case, step, w, h):
    """Whether the ball's square changes on the page (the picture is live)."""
    tag = "%s %s" % (case.tag, step)
    res = call(page, rep, "motion", case.checked, region=writer.ball_square(w, h), duration_ms=LIVE_MS,
               max_ms=LIVE_MAX_MS, min_changes=LIVE_CHANGES, timeout_ms=20000,
               timeout=CALL_S + LIVE_MAX_MS // 1000)
    if res is None:
        return rep.check(case.checked, False, "%s: frames presented for %d ms" % (tag, LIVE_MS))
    rate = res["changes"] * 1000.0 / max(1, res["ms"])
    case.live[step] = rate
    return rep.check(case.checked, res["changes"] >= LIVE_CHANGES,
                     "%s: picture live: the ball's square changed %d times in %d ms (%.1f a second;"
                     " %d frames presented)" % (tag, res["changes"], res["ms"], rate, res["looks"]))


def start_writer(rep, case, step, w, h):
    """A writer at w x h that made the node a capture node; or None."""
    tag = "%s %s" % (case.tag, step)
    log = os.path.join(case.logdir, ("%s-%s.log" % (case.tag, step)).replace(" ", "-"))
    wr = writer.Writer(case.sink, case.fmt, w, h, case.dev, log, case.props, case.pausable)
    rep.info("writer: %s %s" % ("pausewriter.py" if case.pausable else "gst-launch-1.0", wr.line))
    if rep.check(case.checked, wr.start(WRITER_S),
                 "%s: the writer made the node a capture node within %d s" % (tag, WRITER_S)):
        return wr
    for line in wr.tail():
        rep.info("| " + line)
    stop_writer(rep, case, wr)
    return None


def stop_writer(rep, case, wr):
    rc = wr.stop()
    rep.check(case.checked, rc == 0, "%s: writer exit status %d" % (case.tag, rc))


def open_camera(page, rep, case, step, w, h, label):
    """The page's getUserMedia at w x h, then look(); whether it opened."""
    tag = "%s %s" % (case.tag, step)
    res = call(page, rep, "open", case.checked, timeout=OPEN_S, width=w, height=h, timeout_ms=60000)
    if res is None:
        return rep.check(case.checked, False, "%s: getUserMedia opened the camera" % tag)
    size = (res["settings"].get("width"), res["settings"].get("height"))
    if rep.check(case.checked, size == (w, h), "%s: getUserMedia opened it in %d ms, first frame at %d ms,"
                 " settings %sx%s" % (tag, res["open_ms"], res["first_frame_ms"], *size)):
        case.opened[step] = res["open_ms"]
    rep.check(case.checked, res["label"] == label, "%s: track label '%s'" % (tag, res["label"]))
    look(page, rep, case, step, w, h)
    return True


