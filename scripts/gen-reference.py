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
"""Generates docs/reference/<element>.md from the GStreamer registry.

  scripts/gen-reference.py --build-dir build --write
      regenerate docs/reference/ from the plugin in build/gst/fgrab
  scripts/gen-reference.py --build-dir build --check
      regenerate into build/docs-reference/ and fail (exit 1, with the diff)
      when docs/reference/ differs, or when an example launch line does
      not parse

Everything comes from the plugin as GStreamer sees it: factory metadata,
rank, type hierarchy, interfaces, pad templates, and every property's
GParamSpec (type, range, default, flags, blurb), the inherited ones too.
Only the example launch lines below are written by hand; --check parses
each of them, so a renamed property or value breaks the test.

Run it with Debian's /usr/bin/python3 (python3-gi, gir1.2-gstreamer-1.0).
"""

import argparse
import difflib
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SRCDIR = os.path.dirname(HERE)
ELEMENTS = ["fgrabsrc", "fgrabsink"]
REGEN = "scripts/gen-reference.py --build-dir build --write"

# (launch line, what it does).  Each must parse (checked by --check).
EXAMPLES = {
    "fgrabsrc": [
        ("fgrabsrc device=/dev/video0 ! videoconvert ! autovideosink",
         "Show a capture node."),
        ("fgrabsrc ! video/x-raw,width=640,height=360,framerate=30/1 ! fakesink",
         "Ask for a size and rate; the caps then carry the rate the driver "
         "really programmed."),
        ("fgrabsrc device=/dev/video1 ! video/mpeg ! filesink location=tv.mpg",
         "Record the MPEG program stream of an encoder card (ivtv, cx18, "
         "pvrusb2)."),
        ("fgrabsrc readbuffers=4 capturemode=high-quality num-buffers=1 ! "
         "videoconvert ! pngenc ! filesink location=still.png",
         "One still in the driver's high quality mode."),
        ("fgrabsrc input=1 norm=NTSC frequency=61250000 audio-mode=stereo ! "
         "videoconvert ! autovideosink",
         "Watch channel 3 (61.25 MHz) of a TV card's tuner input."),
        ("fgrabsrc device=/dev/vbi0 input=1 norm=NTSC ! "
         "filesink location=cc.s334",
         "Closed captions from a TV card's sliced VBI node, as "
         "closedcaption/x-cea-608, format=s334-1a (WSS under PAL: "
         "fgrab-wss element messages)."),
        ("fgrabsrc device=/dev/vbi0 input=1 norm=NTSC num-buffers=30 ! "
         "video/x-raw ! filesink location=lines.vbi",
         "Raw VBI lines, undecoded, from a VBI node (video/x-raw picks them "
         "on a node that also has sliced VBI): GRAY8 of width "
         "samples_per_line and height count1 + count2 (the first field's "
         "lines, then the second's, or the two interleaved when vbi-flags "
         "has V4L2_VBI_INTERLACED), at 30000/1001 under 525 lines, 25/1 "
         "under 625, with the sampling in the caps: vbi-sampling-rate (Hz), "
         "vbi-offset (samples), vbi-start1/vbi-start2 and "
         "vbi-count1/vbi-count2 (first line and lines of each field, ITU-R "
         "numbers), vbi-flags (V4L2_VBI_UNSYNC 1, V4L2_VBI_INTERLACED 2)."),
    ],
    "fgrabsink": [
        ("videotestsrc ! video/x-raw,format=YUY2,width=640,height=480,"
         "framerate=30/1 ! fgrabsink device=/dev/video10",
         "Feed a v4l2loopback node (a virtual webcam)."),
        ("filesrc location=clip.mkv ! decodebin ! videoconvert ! "
         "video/x-raw,format=YUY2 ! fgrabsink device=/dev/video10",
         "Play a file into a v4l2loopback node."),
        ("videotestsrc ! jpegenc ! fgrabsink device=/dev/video1",
         "Write MJPEG to an output node that takes it."),
        ("videotestsrc ! video/x-raw,format=YUY2,width=640,height=480 ! "
         "fgrabsink device=/dev/video1 write-size=payload",
         "Write to an out-of-tree driver that, like v4l2loopback, takes "
         "every write() as one frame: the picture data alone, never padded "
         "to its sizeimage (auto pads for every driver but v4l2loopback, "
         "as vb2's write() needs)."),
    ],
}

# The element messages each element posts: (name, when, fields), written
# by hand (messages cannot be read from the registry).
MESSAGES = {
    "fgrabsrc": [
        ("fgrab-input-status",
         "When streaming starts, and each time the status of the input "
         "changes (read on the driver's source change events, or about "
         "once a second from a driver without them); a lost picture is also "
         "a warning (\"Signal lost on input 'S-Video': no signal.\"), its "
         "return an info. See the signal-loss property.",
         [("input", "string", "the input's name"),
          ("description", "string", "the status in words, \"no signal, "
           "no colour\", \"ok\""),
          ("input-index", "uint", "its index"),
          ("status", "uint", "ENUMINPUT's V4L2_IN_ST_* bits"),
          ("flags", "array of strings", "the bits set: no-power, "
           "no-signal, no-color, hflip, vflip, no-h-lock, color-kill, "
           "no-v-lock, no-std-lock, no-sync, no-equ, no-carrier, "
           "macrovision, no-access, vtr"),
          ("signal", "boolean", "a picture comes (none of no-power, "
           "no-signal, no-sync, no-h-lock)")]),
        ("fgrab-wss",
         "Sliced VBI under a 625-line standard: when the WSS (line 23) "
         "changes.",
         [("wss", "uint", "the 14 bits of the first field's WSS"),
          ("aspect-ratio", "string", "what bits 0-3 announce, e.g. "
           "\"16:9 letterbox centre\" (\"invalid\": bad parity)"),
          ("timestamp", "uint64", "the PTS of the frame that carried it")]),
    ],
    "fgrabsink": [
        ("fgrab-readers",
         "At READY->PAUSED, and each time the count of readers streaming "
         "from a v4l2loopback node changes, as the driver reports it "
         "(v4l2loopback 0.13 and later: its client-usage event, taken also "
         "while paused or stalled). See the readers property.",
         [("readers", "int", "readers streaming (0 or 1 on v4l2loopback), "
           "-1 when the driver does not say (v4l2loopback 0.12, other "
           "drivers)")]),
    ],
}

PARAM_FLAGS = [  # (bit, words), as gst-inspect-1.0 says them
    (1 << 0, "readable"),
    (1 << 1, "writable"),
    (1 << 3, "construct-only"),
    (1 << 9, "controllable"),
    (1 << 10, "changeable only in NULL or READY state"),
    (1 << 11, "changeable in NULL, READY, PAUSED state"),
    (1 << 12, "changeable in NULL, READY, PAUSED or PLAYING state"),
    (1 << 14, "conditionally available"),
    (1 << 31, "deprecated"),
]


def init_gst(build_dir):
    plugin_dir = os.path.join(build_dir, "gst", "fgrab")
    if not os.path.isdir(plugin_dir):
        sys.exit("gen-reference: %s is not a built fgrab tree (no gst/fgrab)"
                 % build_dir)
    work = os.path.join(build_dir, "docs-reference")
    os.makedirs(work, exist_ok=True)
    # the build tree's plugin, in a registry of our own, never an
    # installed copy
    os.environ["GST_PLUGIN_PATH_1_0"] = plugin_dir
    os.environ["GST_REGISTRY_1_0"] = os.path.join(work, "registry.bin")
    import gi
    gi.require_version("Gst", "1.0")
    from gi.repository import GObject, Gst
    Gst.init(None)
    return Gst, GObject, plugin_dir, work


def split_fields(text):
    """Splits a caps structure string at its top-level commas."""
    out, depth, quoted, cur = [], 0, False, ""
    for ch in text:
        if ch == '"':
            quoted = not quoted
        elif not quoted and ch in "{[(<":
            depth += 1
        elif not quoted and ch in "}])>":
            depth -= 1
        if ch == "," and depth == 0 and not quoted:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


def caps_block(caps):
    if caps.is_any():
        return ["ANY"]
    lines = []
    for i in range(caps.get_size()):
        fields = split_fields(caps.get_structure(i).to_string().rstrip(";"))
        features = caps.get_features(i)
        name = fields[0]
        if features is not None and not features.is_any() and \
                features.to_string() != "memory:SystemMemory":
            name += "(%s)" % features.to_string()
        lines.append(name)
        for f in fields[1:]:
            k, _, v = f.partition("=")
            lines.append("    %s: %s" % (k.strip(), v.strip()))
    return lines


def type_name(gtype):
    return gtype.name


def flags_words(flags):
    return ", ".join(w for bit, w in PARAM_FLAGS if flags & bit) or "none"


def enum_values(pspec):
    """[(value, nick, name)] of an enum or flags property's type."""
    from gi.repository import GObject
    flags = GObject.type_is_a(pspec.value_type, GObject.TYPE_FLAGS)
    key = "__flags_values__" if flags else "__enum_values__"
    table = getattr(pspec.value_type.pytype, key, None)
    if not table:
        # PyGObject 3.50 (Debian 13) fills in the class of a type that a
        # plugin registered only once it converted a value of it; gi's own
        # module loader makes such classes with enum_add and flags_add.
        from gi import _gi
        add = _gi.flags_add if flags else _gi.enum_add
        table = getattr(add(pspec.value_type), key, {})
    out = []
    for v in sorted(table):
        e = table[v]
        if hasattr(e, "value_nick"):
            out.append((int(v), e.value_nick, e.value_name))
        elif e.value_nicks:  # flags: a value of one bit has one name
            out.append((int(v), e.value_nicks[0], e.value_names[0]))
    return out


def flags_nicks(value, values):
    v = int(value)
    nicks = [n for bit, n, _ in values if bit and (v & bit) == bit]
    return "+".join(nicks) if nicks else "(none)"


def describe_property(GObject, pspec):
    kind = GObject.type_fundamental(pspec.value_type)
    names = {
        GObject.TYPE_BOOLEAN: "boolean", GObject.TYPE_INT: "gint",
        GObject.TYPE_UINT: "guint", GObject.TYPE_INT64: "gint64",
        GObject.TYPE_UINT64: "guint64", GObject.TYPE_LONG: "glong",
        GObject.TYPE_ULONG: "gulong", GObject.TYPE_DOUBLE: "gdouble",
        GObject.TYPE_FLOAT: "gfloat", GObject.TYPE_STRING: "string",
    }
    rows = []
    # Boxed and object properties have no default to show, and PyGObject
    # 3.50 (Debian 13) raises when asked for one: read it only for the
    # kinds that have one.
    default = None
    if kind in names or kind in (GObject.TYPE_ENUM, GObject.TYPE_FLAGS):
        default = pspec.default_value
    if kind == GObject.TYPE_ENUM:
        vals = enum_values(pspec)
        rows.append(("Type", "enum `%s`" % type_name(pspec.value_type)))
        nick = [n for v, n, _ in vals if v == int(default)]
        rows.append(("Default", "`%s` (%d)" % (nick[0] if nick else "?",
                                                int(default))))
        rows.append(("Values", "<br>".join(
            "`%s` (%d): %s" % (n, v, name) for v, n, name in vals)))
    elif kind == GObject.TYPE_FLAGS:
        vals = enum_values(pspec)
        rows.append(("Type", "flags `%s`" % type_name(pspec.value_type)))
        rows.append(("Default", "`%s` (0x%08x)" % (flags_nicks(default, vals),
                                                    int(default))))
        rows.append(("Values", "<br>".join(
            "`%s` (0x%08x): %s" % (n, v, name) for v, n, name in vals)))
    elif kind in names:
        rows.append(("Type", names[kind]))
        if kind == GObject.TYPE_STRING:
            rows.append(("Default", "NULL" if default is None
                         else "`\"%s\"`" % default))
        elif kind == GObject.TYPE_BOOLEAN:
            rows.append(("Default", "`%s`" % ("true" if default else "false")))
        else:
            lo, hi = pspec.minimum, pspec.maximum
            if kind in (GObject.TYPE_DOUBLE, GObject.TYPE_FLOAT):
                rows.append(("Range", "%g to %g" % (lo, hi)))
                rows.append(("Default", "`%g`" % default))
            else:
                rows.append(("Range", "%d to %d" % (lo, hi)))
                rows.append(("Default", "`%d`" % default))
    elif kind == GObject.TYPE_OBJECT:
        rows.append(("Type", "object `%s`" % type_name(pspec.value_type)))
    elif kind == GObject.TYPE_BOXED:
        rows.append(("Type", "boxed `%s`" % type_name(pspec.value_type)))
    else:
        rows.append(("Type", "`%s`" % type_name(pspec.value_type)))
    rows.append(("Flags", flags_words(pspec.flags)))
    return rows


def hierarchy(GObject, gtype):
    chain = []
    t = gtype
    while t is not None and t.name != "invalid":
        chain.append(t.name)
        t = t.parent
    return list(reversed(chain))


def generate(Gst, GObject, name):
    factory = Gst.ElementFactory.find(name)
    if factory is None:
        sys.exit("gen-reference: element %s not found" % name)
    factory = factory.load()
    gtype = factory.get_element_type()
    plugin = factory.get_plugin()
    out = []
    w = out.append
    w("<!-- Generated by scripts/gen-reference.py from the registry; do not "
      "edit.")
    w("     Regenerate: %s -->" % REGEN)
    w("")
    w("# %s" % name)
    w("")
    w("%s." % factory.get_metadata("description"))
    w("")
    w("| | |")
    w("|---|---|")
    w("| Long name | %s |" % factory.get_metadata("long-name"))
    w("| Classification | `%s` |" % factory.get_metadata("klass"))
    rank = factory.get_rank()
    rank_names = {0: "none", 64: "marginal", 128: "secondary", 256: "primary"}
    w("| Rank | %s (%d) |" % (rank_names.get(rank, "custom"), rank))
    w("| Plugin | `%s` %s, %s |" % (plugin.get_name(), plugin.get_version(),
                                   plugin.get_license()))
    w("| Author | %s |" % factory.get_metadata("author"))
    w("| Hierarchy | %s |" % " → ".join(hierarchy(GObject, gtype)))
    ifaces = sorted(t.name for t in GObject.type_interfaces(gtype))
    w("| Interfaces | %s |" % (", ".join(ifaces) if ifaces else "none"))
    protocols = factory.get_uri_protocols()
    if protocols:
        kind = {Gst.URIType.SRC: "source", Gst.URIType.SINK: "sink"}.get(
            factory.get_uri_type(), "unknown")
        w("| URI handler | %s of %s |" % (
            kind, ", ".join("`%s://`" % p for p in protocols)))
    w("")

    w("## Pad templates")
    for tmpl in factory.get_static_pad_templates():
        direction = {Gst.PadDirection.SRC: "source",
                     Gst.PadDirection.SINK: "sink"}[tmpl.direction]
        presence = {Gst.PadPresence.ALWAYS: "always",
                    Gst.PadPresence.SOMETIMES: "sometimes",
                    Gst.PadPresence.REQUEST: "request"}[tmpl.presence]
        w("")
        w("### `%s` (%s, %s)" % (tmpl.name_template, direction, presence))
        w("")
        w("```")
        out.extend(caps_block(tmpl.get_caps()))
        w("```")
    w("")
    w("Once the device is open the pad offers the node's own formats, sizes "
      "and rates (`gst-inspect-1.0` shows the template above).")
    w("")

    w("## Properties")
    own = [p for p in GObject.list_properties(gtype) if p.owner_type == gtype]
    inherited = [p for p in GObject.list_properties(gtype)
                 if p.owner_type != gtype]
    groups = [(gtype.name, own)]
    for owner in reversed(hierarchy(GObject, gtype)[:-1]):
        ps = [p for p in inherited if p.owner_type.name == owner]
        if ps:
            groups.append((owner, ps))
    for owner, pspecs in groups:
        w("")
        if owner == gtype.name:
            w("### Properties of %s" % owner)
        else:
            w("### Inherited from %s" % owner)
        for p in sorted(pspecs, key=lambda p: p.name):
            w("")
            w("#### `%s`" % p.name)
            w("")
            w(p.blurb + ("" if p.blurb.endswith(".") else "."))
            w("")
            w("| | |")
            w("|---|---|")
            for k, v in describe_property(GObject, p):
                w("| %s | %s |" % (k, v))
    w("")

    if MESSAGES.get(name):
        w("## Element messages")
        for msg, when, fields in MESSAGES[name]:
            w("")
            w("### `%s`" % msg)
            w("")
            w(when)
            w("")
            w("| Field | Type | |")
            w("|---|---|---|")
            for field, ftype, what in fields:
                w("| `%s` | %s | %s |" % (field, ftype, what))
        w("")

    w("## Examples")
    for line, what in EXAMPLES.get(name, []):
        w("")
        w(what)
        w("")
        w("    gst-launch-1.0 %s" % line)
    w("")
    w("See also: [the guide](../guide.md), "
      "[testing with the fake device](../testing-with-fakedev.md).")
    return "\n".join(out) + "\n"


def check_examples(Gst):
    """Every example launch line must parse into a pipeline; FALSE if not."""
    ok = True
    for name in ELEMENTS:
        for line, _ in EXAMPLES.get(name, []):
            try:
                p = Gst.parse_launch(line)
                p.set_state(Gst.State.NULL)
            except Exception as e:  # GLib.Error from the parser
                print("gen-reference: example for %s does not parse: %s\n"
                      "  %s" % (name, e, line), file=sys.stderr)
                ok = False
    return ok


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build-dir", required=True,
                    help="meson build directory with the built plugin")
    mode = ap.add_mutually_exclusive_group(required=True)
    mode.add_argument("--write", action="store_true",
                      help="write docs/reference/ in the source tree")
    mode.add_argument("--check", action="store_true",
                      help="regenerate into the build dir and diff")
    args = ap.parse_args()
    Gst, GObject, plugin_dir, work = init_gst(os.path.abspath(args.build_dir))

    plugin = Gst.Registry.get().find_plugin("fgrab")
    if plugin is None or not os.path.realpath(plugin.get_filename()).startswith(
            os.path.realpath(plugin_dir) + os.sep):
        sys.exit("gen-reference: the fgrab plugin did not load from %s"
                 % plugin_dir)

    ref_dir = os.path.join(SRCDIR, "docs", "reference")
    out_dir = ref_dir if args.write else work
    os.makedirs(out_dir, exist_ok=True)
    stale = []
    for name in ELEMENTS:
        text = generate(Gst, GObject, name)
        path = os.path.join(out_dir, name + ".md")
        with open(path, "w") as f:
            f.write(text)
        if args.check:
            ref = os.path.join(ref_dir, name + ".md")
            old = open(ref).read() if os.path.exists(ref) else ""
            if old != text:
                stale.append(name)
                sys.stdout.writelines(difflib.unified_diff(
                    old.splitlines(True), text.splitlines(True),
                    "docs/reference/%s.md" % name, "generated/%s.md" % name))
        else:
            print("wrote %s" % os.path.relpath(path, SRCDIR))
    examples_ok = check_examples(Gst) if args.check else True
    if stale:
        print("docs/reference is out of date for %s: run %s"
              % (", ".join(stale), REGEN))
    if stale or not examples_ok:
        return 1
    if args.check:
        print("docs/reference is up to date (%s); example launch lines parse"
              % ", ".join(ELEMENTS))
    return 0


if __name__ == "__main__":
    sys.exit(main())
