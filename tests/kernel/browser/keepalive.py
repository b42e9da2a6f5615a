# SPDX-License-Identifier: LGPL-2.1-or-later
"""The writer pauses under an open call: fgrabsink's keep-alive keeps the
browser's camera track live (docs/guide.md, "Keeping the camera alive").

Chromium restarts a V4L2 capture that sent no frame for 1 s and gives up
after ten restarts in a row (v4l2_capture_delegate.cc: kCaptureTimeoutMs,
kContinuousTimeoutLimit); its track mutes when frames stop coming
(video_track_adapter.cc: the frame monitor, about 25 frame intervals).
For each writer of WRITERS (or those asked for), one pausable writer
(pausewriter.py) with fgrabsink and those properties, YUY2 at 640x360:
  1. getUserMedia opens the camera: colours right, picture live;
  2. the writer's pipeline goes to PAUSED for PAUSE_S s while the page
     watches the open track every WATCH_STEP_MS: it stays live, is never
     muted and frames keep coming, and the frame at the pause's end has
     the bars' colours (the last frame, repeated); fgrabsink posts
     fgrab-keep-alive active;
  3. the pipeline plays again: the same track, with no new getUserMedia,
     has the colours and moves again.
With keep-alive=repeat, v4l2loopback's own timers are set away from their
defaults first (DRIVER_CONTROLS, with v4l2-ctl) and read back after the
browser opened the camera: Chromium resets a camera's user controls to
their defaults when it opens it (ResetUserAndCameraControlsToDefault,
v4l2_capture_delegate.cc), but begins by setting V4L2_CID_AUTO_WHITE_BALANCE
and gives up when that fails, which v4l2loopback, without that control,
makes it do; Firefox resets nothing.  Checked: the values are kept.  They
are set back to their defaults before the pause.
keep-alive=repeat is checked; off, what a writer without it gets, is
recorded (SEEN lines), as are the driver's own timers (DRIVER_WRITERS, set
through fgrabsink's extra-controls, for the kernel-compare suite's
browser-timers group).  table() prints the rows of docs/guide.md's table.
"""

import subprocess

from steps import TOLERANCE, Case, call, look, look_colours, open_camera, start_writer, stop_writer

# name -> fgrabsink's properties; keep-alive=repeat alone is checked
WRITERS = {"repeat": "keep-alive=repeat", "off": "keep-alive=off"}
CHECKED = "repeat"
# v4l2loopback's own timers instead (v4l2loopback.c: timeout_timer_clb,
# sustain_timer_clb), what the guide compares keep-alive with
DRIVER_WRITERS = {
    "timeout=500": "keep-alive=off extra-controls=c,timeout=500",
    "timeout=2000": "keep-alive=off extra-controls=c,timeout=2000",
    "sustain_framerate=1": "keep-alive=off extra-controls=c,sustain_framerate=1",
}
FORMAT = "YUY2"
SIZE = (640, 360)
PAUSE_S = 15  # the pause: longer than Chromium's ten 1 s restarts
WATCH_STEP_MS = 500
MIN_FRAMES = 3  # presented in the pause (the page presented 1.4-10 a second before)
WRITER_PAUSED_S = 10
# v4l2loopback's timers (v4l2loopback.c: CID_SUSTAIN_FRAMERATE, CID_TIMEOUT),
# away from their defaults (0) for the open only: back to these before the
# pause, which they would otherwise fill with frames of their own
DRIVER_CONTROLS = {"sustain_framerate": 1, "timeout": 3000}
DRIVER_DEFAULTS = {"sustain_framerate": 0, "timeout": 0}


def set_controls(dev, values):
    arg = ",".join("%s=%d" % kv for kv in values.items())
    return subprocess.run(["v4l2-ctl", "-d", dev, "-c", arg], capture_output=True).returncode == 0


def get_controls(dev, names):
    """name -> value as v4l2-ctl -C prints them ("name: value")."""
    out = subprocess.run(["v4l2-ctl", "-d", dev, "-C", ",".join(names)], capture_output=True,
                         text=True).stdout
    got = {}
    for line in out.splitlines():
        name, _, value = line.partition(":")
        if value.strip().lstrip("-").isdigit():
            got[name.strip()] = int(value)
    return got


class Pause:
    """What the page saw of the track while its writer was paused."""

    def __init__(self, name, case):
        self.name, self.case = name, case
        self.track = "-"  # the track's state in the pause, in words
        self.frames = None  # frames presented in the pause
        self.end_colours = None  # whether the frame at the pause's end had them
        self.after = None  # whether the same track was right and live after it


def track_story(samples, events):
    """The track in the pause, in words: "live" or what happened when."""
    said = ["%s at %.1f s" % (e["type"], e["ms"] / 1000.0) for e in events]
    last = samples[-1]
    state = last["readyState"] + (", muted" if last["muted"] else "")
    return state if not said else "%s (%s)" % (state, ", ".join(said))


def watch_pause(page, rep, pause, wr):
    """Step 2: the writer paused, the page watching the track."""
    case, w, h = pause.case, SIZE[0], SIZE[1]
    wr.pause()
    if not rep.check(case.checked, wr.wait_for("state: paused", WRITER_PAUSED_S),
                     "%s: the writer's pipeline went to PAUSED" % case.tag):
        return
    got = call(page, rep, "watch", case.checked, duration_ms=PAUSE_S * 1000, step_ms=WATCH_STEP_MS,
               timeout=60 + PAUSE_S)
    if got is None:
        return
    samples, events = got["samples"], got["events"]
    pause.track = track_story(samples, events)
    pause.frames = samples[-1]["frames"] - samples[0]["frames"]
    rep.check(case.checked, all(s["readyState"] == "live" for s in samples),
              "%s: the track stayed live through the %d s pause: %s" % (case.tag, PAUSE_S, pause.track))
    rep.check(case.checked, not events and not any(s["muted"] for s in samples),
              "%s: the track was never muted and fired no event: %s" % (case.tag, events))
    rep.check(case.checked, pause.frames >= MIN_FRAMES,
              "%s: the page presented %d frames in the pause" % (case.tag, pause.frames))
    # one frame: the driver's timers send frames of their own between
    pause.end_colours = look_colours(page, rep, case, "at the pause's end", w, h, timeout_ms=5000, frames=1)
    rep.check(case.checked, wr.wait_for("keep-alive: on", 0),
              "%s: fgrabsink posted fgrab-keep-alive active" % case.tag)


def open_keeping_controls(page, rep, case, label):
    """getUserMedia, the driver's timers set around it when case is
    checked (DRIVER_CONTROLS) and off again after it; whether it opened."""
    w, h = SIZE
    if not case.checked:
        return open_camera(page, rep, case, "before the pause", w, h, label)
    rep.check(True, set_controls(case.dev, DRIVER_CONTROLS), "v4l2-ctl set v4l2loopback's %s" % DRIVER_CONTROLS)
    opened = open_camera(page, rep, case, "before the pause", w, h, label)
    got = get_controls(case.dev, DRIVER_CONTROLS)
    rep.check(True, got == DRIVER_CONTROLS, "the browser's open left v4l2loopback's controls as they were: %s" % got)
    # the driver's timers off again: the pause is keep-alive's alone
    rep.check(True, set_controls(case.dev, DRIVER_DEFAULTS), "v4l2-ctl set v4l2loopback's %s" % DRIVER_DEFAULTS)
    return opened


def run_mode(page, rep, pause, label):
    case, (w, h) = pause.case, SIZE
    wr = start_writer(rep, case, "before the pause", w, h)
    if wr is None:
        return
    if open_keeping_controls(page, rep, case, label):
        watch_pause(page, rep, pause, wr)
        wr.resume()
        rep.check(case.checked, wr.wait_for("state: playing", WRITER_PAUSED_S) and
                  wr.proc.poll() is None, "%s: the writer's pipeline plays again" % case.tag)
        look(page, rep, case, "after the pause", w, h)
        after = "after the pause"
        pause.after = case.colours.get(after, 255) <= TOLERANCE and case.live.get(after, 0) > 0
    call(page, rep, "close", case.checked)
    stop_writer(rep, case, wr)


def run(page, rep, dev, logdir, label, names=(CHECKED,)):
    """The writers of WRITERS or DRIVER_WRITERS called names; their Pause
    records."""
    pauses = []
    for name in names:
        props = WRITERS.get(name) or DRIVER_WRITERS[name]
        case = Case("fgrabsink", FORMAT, dev, logdir, name == CHECKED, props=props, pausable=True)
        rep.section("%s: the writer pauses for %d s under the open track" % (case.tag, PAUSE_S))
        pauses.append(Pause(name, case))
        run_mode(page, rep, pauses[-1], label)
    return pauses


def cell(flag):
    return "-" if flag is None else "yes" if flag else "no"


def table(browser, pauses):
    print("\n=== keep-alive table (docs/guide.md): %s, %s %dx%d, the writer paused %d s"
          % (browser, FORMAT, SIZE[0], SIZE[1], PAUSE_S))
    print("| writer | the track in the pause | frames presented in the pause"
          " | bars at the pause's end | same track right and live after |")
    print("|---|---|---|---|---|")
    for p in pauses:
        print("| %s | %s | %s | %s | %s |" % (p.name, p.track, "-" if p.frames is None else p.frames,
                                             cell(p.end_colours), cell(p.after)))
