#!/usr/bin/python3
"""Small GObject-introspection helper for the kernel-tier scenarios.

  fgrab-probe.py formats DEVICE
      Opens fgrabsrc on DEVICE (READY), prints "device-name=..." and then the
      video/x-raw formats its src pad offers, one per line ("format=YUY2").

  fgrab-probe.py props DEVICE CAPS [PROP=VALUE ...]
      Runs "fgrabsrc device=DEVICE PROP=VALUE... ! CAPS ! fakesink", and once two
      buffers went through (the element is configured and streaming) prints its
      properties as "prop.NAME=VALUE" lines, the negotiated caps ("caps=..."), and the
      output of "v4l2-ctl -d DEVICE --get-parm" taken from a second handle while the
      pipeline streams ("parm: ..." lines). Exit 0 on success, 1 on a pipeline error,
      2 when no buffers arrive within the timeout.

  fgrab-probe.py controls PIPELINE DEVICE NAMES [LIVE]
      Runs PIPELINE (gst-launch syntax; its fgrab element is named "el"). Once two
      buffers went through it prints the element's extra-controls as read back
      ("start.prop=...") and "v4l2-ctl -d DEVICE -C NAMES" from a second handle
      ("start.ctl: ..." lines). With LIVE (a structure) it then sets
      extra-controls to LIVE while playing and, five buffers later, prints the same
      as "live.". LIVE "balance:LABEL=VALUE,..." sets GstColorBalance channels
      instead (printing the channels as "channel: LABEL MIN MAX"). A source's
      colour balance properties are printed too ("start.brightness=...").
      Warnings are printed as "warning: ..." lines. Exit 0 when it got
      that far, 1 on a pipeline error, 2 when buffers stop.

  fgrab-probe.py tuning PIPELINE DEVICE [LIVE]
      Runs PIPELINE (its fgrabsrc named "el"). At the third buffer it prints the
      element's frequency, signal and audio-mode ("start.frequency=..."), how many
      per cent of the bytes of the last two frames differ ("start.frame-diff=N": 0
      for vivid's still pattern on a channel, most for its noise off one) and
      "v4l2-ctl -d DEVICE -F" and "--get-tuner" from a second handle
      ("start.ctl: ..." lines). With LIVE ("PROP=VALUE,...") it then sets those
      properties while playing and, five buffers later, prints the same as
      "live.". Exit codes as for controls.

Needs Debian's /usr/bin/python3 with python3-gi and gir1.2-gstreamer-1.0.
"""
import re
import subprocess
import sys

import gi

gi.require_version("Gst", "1.0")
# before any element exists: the wrappers of the interfaces it implements
# (GstColorBalance) are made from the typelibs loaded by then
gi.require_version("GstVideo", "1.0")
from gi.repository import GLib, GObject, Gst, GstVideo  # noqa: E402

TIMEOUT_S = 30


def fail(msg, code=1):
    print("probe: " + msg, flush=True)
    sys.exit(code)


def cmd_formats(device):
    src = Gst.ElementFactory.make("fgrabsrc", "src")
    if src is None:
        fail("no fgrabsrc element")
    src.set_property("device", device)
    if src.set_state(Gst.State.READY) == Gst.StateChangeReturn.FAILURE:
        fail("fgrabsrc did not reach READY on " + device)
    print("device-name=%s" % src.get_property("device-name"))
    caps = src.get_static_pad("src").query_caps(None)
    seen = []
    for i in range(caps.get_size()):
        st = caps.get_structure(i)
        if st.get_name() != "video/x-raw":
            continue
        text = st.to_string()
        m = re.search(r"format=\(string\)\{([^}]*)\}", text)
        if m:
            names = [x.strip() for x in m.group(1).split(",")]
        else:
            m = re.search(r"format=\(string\)([A-Za-z0-9_]+)", text)
            names = [m.group(1)] if m else []
        for n in names:
            if n not in seen:
                seen.append(n)
    for n in seen:
        print("format=%s" % n)
    src.set_state(Gst.State.NULL)


def prop_text(value):
    if isinstance(value, (GObject.GFlags, GObject.GEnum)):
        return str(int(value))
    return str(value)


def run_pipeline(pipeline, loop, state, on_timeout):
    """Plays PIPELINE until LOOP quits; an error sets state["rc"] to 1, warnings
    are printed, EOS ends it. Exits with state["rc"]."""
    def on_message(_bus, msg):
        if msg.type == Gst.MessageType.ERROR:
            err, dbg = msg.parse_error()
            print("error: %s (%s)" % (err.message, dbg), flush=True)
            state["rc"] = 1
            loop.quit()
        elif msg.type == Gst.MessageType.WARNING:
            err, dbg = msg.parse_warning()
            print("warning: %s (%s)" % (err.message, dbg), flush=True)
        elif msg.type == Gst.MessageType.EOS:
            loop.quit()

    bus = pipeline.get_bus()
    bus.add_signal_watch()
    bus.connect("message", on_message)
    GLib.timeout_add_seconds(TIMEOUT_S, on_timeout)
    pipeline.set_state(Gst.State.PLAYING)
    loop.run()
    pipeline.set_state(Gst.State.NULL)
    sys.stdout.flush()
    sys.exit(state["rc"])


def cmd_props(device, caps, props):
    desc = "fgrabsrc name=src device=%s %s ! %s ! fakesink name=sink signal-handoffs=true" % (
        device, " ".join(props), caps)
    print("pipeline: " + desc, flush=True)
    try:
        pipeline = Gst.parse_launch(desc)
    except GLib.Error as e:
        fail("cannot build pipeline: %s" % e.message)
    src = pipeline.get_by_name("src")
    sink = pipeline.get_by_name("sink")
    for name in ("readbuffers", "capturemode", "extendedmode"):
        print("before.%s=%s" % (name, prop_text(src.get_property(name))))
    loop = GLib.MainLoop()
    state = {"buffers": 0, "done": False, "rc": 0}

    def report():
        if state["done"]:
            return False
        state["done"] = True
        for name in ("readbuffers", "capturemode", "extendedmode", "device-name"):
            print("prop.%s=%s" % (name, prop_text(src.get_property(name))))
        pcaps = src.get_static_pad("src").get_current_caps()
        print("caps=%s" % (pcaps.to_string() if pcaps else ""))
        out = subprocess.run(["v4l2-ctl", "-d", device, "--get-parm"],
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                             universal_newlines=True, check=False)
        for line in out.stdout.splitlines():
            print("parm: " + line.strip())
        loop.quit()
        return False

    def on_handoff(_sink, _buf, _pad):
        state["buffers"] += 1
        if state["buffers"] == 2:
            GLib.idle_add(report)

    def on_timeout():
        if not state["done"]:
            print("probe: no buffers within %d s" % TIMEOUT_S, flush=True)
            state["rc"] = 2
            loop.quit()
        return False

    sink.connect("handoff", on_handoff)
    run_pipeline(pipeline, loop, state, on_timeout)


def controls_snapshot(tag, element, device, names):
    value = element.get_property("extra-controls")
    print("%s.prop=%s" % (tag, value.to_string() if value else ""), flush=True)
    for name in ("brightness", "contrast", "saturation", "hue"):
        if element.find_property(name):
            print("%s.%s=%d" % (tag, name, element.get_property(name)), flush=True)
    out = subprocess.run(["v4l2-ctl", "-d", device, "-C", names],
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         universal_newlines=True, check=False)
    for line in out.stdout.splitlines():
        print("%s.ctl: %s" % (tag, line.strip()), flush=True)


def set_balance(element, settings):
    if not isinstance(element, GstVideo.ColorBalance):
        fail("%s does not implement GstColorBalance" % element.get_name())
    channels = element.list_channels()
    for ch in channels:
        print("channel: %s %d %d" % (ch.label, ch.min_value, ch.max_value), flush=True)
    for item in settings.split(","):
        label, value = item.split("=")
        for ch in channels:
            if ch.label == label:
                element.set_value(ch, int(value))
                print("balance.%s=%d" % (label, GstVideo.ColorBalance.get_value(element, ch)),
                      flush=True)


def cmd_controls(desc, device, names, live):
    print("pipeline: " + desc, flush=True)
    pipeline = Gst.parse_launch(desc)
    element = pipeline.get_by_name("el")
    pad = element.get_static_pad("src") or element.get_static_pad("sink")
    loop = GLib.MainLoop()
    state = {"buffers": 0, "next": 2, "phase": "start", "rc": 2}

    def step():
        controls_snapshot(state["phase"], element, device, names)
        if state["phase"] == "start" and live:
            print("set: " + live, flush=True)
            if live.startswith("balance:"):
                set_balance(element, live[len("balance:"):])
            else:
                element.set_property("extra-controls",
                                     Gst.Structure.new_from_string(live))
            state["phase"] = "live"
            state["next"] = state["buffers"] + 5
            return False
        state["rc"] = 0
        loop.quit()
        return False

    def on_buffer(_pad, _info):
        state["buffers"] += 1
        if state["buffers"] == state["next"]:
            GLib.idle_add(step)
        return Gst.PadProbeReturn.OK

    def on_timeout():
        print("probe: buffers stopped at %d" % state["buffers"], flush=True)
        loop.quit()
        return False

    pad.add_probe(Gst.PadProbeType.BUFFER, on_buffer)
    run_pipeline(pipeline, loop, state, on_timeout)


def main():
    Gst.init(None)
    if len(sys.argv) >= 3 and sys.argv[1] == "formats":
        cmd_formats(sys.argv[2])
    elif len(sys.argv) >= 4 and sys.argv[1] == "props":
        cmd_props(sys.argv[2], sys.argv[3], sys.argv[4:])
    elif len(sys.argv) in (5, 6) and sys.argv[1] == "controls":
        cmd_controls(sys.argv[2], sys.argv[3], sys.argv[4],
                     sys.argv[5] if len(sys.argv) == 6 else None)
    elif len(sys.argv) in (4, 5) and sys.argv[1] == "tuning":
        cmd_tuning(sys.argv[2], sys.argv[3], sys.argv[4:])
    else:
        fail(__doc__)



def differing_percent(frames):
    """Per cent of the bytes (every 16th byte compared) that differ between
    the two frames of FRAMES; -1 without two frames of one size."""
    if len(frames) < 2 or len(frames[0]) != len(frames[1]):
        return -1
    older, newer = frames[0][::16], frames[1][::16]
    differ = sum(1 for a, b in zip(older, newer) if a != b)
    return 100 * differ // max(len(older), 1)


def tuning_report(tag, element, device, frames):
    for name in ("frequency", "signal", "audio-mode"):
        print("%s.%s=%s" % (tag, name, prop_text(element.get_property(name))),
              flush=True)
    print("%s.frame-diff=%d" % (tag, differing_percent(frames)), flush=True)
    for query in ("-F", "--get-tuner"):
        out = subprocess.run(["v4l2-ctl", "-d", device, query],
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                             universal_newlines=True, check=False)
        for line in out.stdout.splitlines():
            print("%s.ctl: %s" % (tag, line.strip()), flush=True)


def cmd_tuning(desc, device, live):
    print("pipeline: " + desc, flush=True)
    pipeline = Gst.parse_launch(desc)
    element = pipeline.get_by_name("el")
    loop = GLib.MainLoop()
    # the phases still to report, and the buffer count each is due at
    phases = [("start", 3)] + [("live", None)] * len(live)
    state = {"buffers": 0, "rc": 2, "frames": [], "pair": []}

    def report():
        tag = phases.pop(0)[0]
        tuning_report(tag, element, device, state["pair"])
        if not phases:
            state["rc"] = 0
            loop.quit()
            return False
        print("set: " + live[0], flush=True)
        for setting in live[0].split(","):
            name, value = setting.split("=", 1)
            Gst.util_set_object_arg(element, name, value)
        phases[0] = (phases[0][0], state["buffers"] + 5)
        return False

    def on_timeout():
        print("probe: tuning stopped at buffer %d" % state["buffers"], flush=True)
        loop.quit()
        return False

    def on_buffer(_pad, info):
        state["buffers"] += 1
        due = phases and phases[0][1] == state["buffers"]
        buf = info.get_buffer()
        ok, mapped = buf.map(Gst.MapFlags.READ)
        if ok:
            state["frames"] = state["frames"][-1:] + [bytes(mapped.data)]
            buf.unmap(mapped)
        if due:
            state["pair"] = list(state["frames"])
            GLib.idle_add(report)
        return Gst.PadProbeReturn.OK

    element.get_static_pad("src").add_probe(Gst.PadProbeType.BUFFER, on_buffer)
    run_pipeline(pipeline, loop, state, on_timeout)


if __name__ == "__main__":
    main()
