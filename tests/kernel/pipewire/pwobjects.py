#!/usr/bin/python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""What PipeWire lists for a V4L2 node, from pw-dump (the pipewire group).

  pwobjects.py list DEVICE
      One pw-dump; prints a line for each PipeWire object whose
      api.v4l2.path is DEVICE (the SPA v4l2 device, "Video/Device", and
      the node it makes, "Video/Source"): tab-separated
      kind id object.serial media.class name description nick,
      kind "device" or "node", name/description/nick from device.* or
      node.*.  Exit 0 (also when there is none).

  pwobjects.py wait DEVICE WHAT SECONDS
      pw-dump again every 0.3 s, for SECONDS at most, until WHAT is true:
      "device" (the Video/Device of DEVICE is listed), "source" (its
      Video/Source node is listed) or "no-source" (no Video/Source node of
      DEVICE is listed); then prints "after MS ms" and the lines of
      "list".  Exit 0 when it came true, 1 when the time ran out.

pw-dump's JSON (src/tools/pw-dump.c in PipeWire): an array of objects
with "id", "type" (PipeWire:Interface:Node, ...:Device) and "info" whose
"props" are the object's properties.  The V4L2 properties are set by
spa/plugins/v4l2/v4l2-udev.c and v4l2-device.c (api.v4l2.path) and the
names by WirePlumber's monitors/v4l2/name-device.lua and name-node.lua.
"""

import json
import subprocess
import sys
import time

KINDS = {
    "PipeWire:Interface:Node": "node",
    "PipeWire:Interface:Device": "device",
}


def dump():
    """pw-dump's objects ([] when it fails: the daemon is not up yet)."""
    try:
        out = subprocess.run(["pw-dump", "--no-colors"], capture_output=True,
                             text=True, timeout=20, check=False).stdout
        return json.loads(out) if out.strip() else []
    except (subprocess.TimeoutExpired, ValueError):
        return []


def rows(objects, device):
    """(kind, props) of the objects on DEVICE, devices first."""
    found = []
    for obj in objects:
        kind = KINDS.get(obj.get("type"))
        props = (obj.get("info") or {}).get("props") or {}
        if kind and props.get("api.v4l2.path") == device:
            found.append((kind, obj.get("id"), props))
    found.sort(key=lambda r: (r[0] != "device", r[1]))
    return found


def line(kind, oid, props):
    pre = "node." if kind == "node" else "device."
    return "\t".join(str(v) for v in (
        kind, oid, props.get("object.serial", "-"),
        props.get("media.class", "-"), props.get(pre + "name", "-"),
        props.get(pre + "description", "-"), props.get(pre + "nick", "-")))


def has_class(found, kind, media_class):
    return any(k == kind and p.get("media.class") == media_class
               for k, _, p in found)


TESTS = {
    "device": lambda f: has_class(f, "device", "Video/Device"),
    "source": lambda f: has_class(f, "node", "Video/Source"),
    "no-source": lambda f: not has_class(f, "node", "Video/Source"),
}


def main(argv):
    if len(argv) == 3 and argv[1] == "list":
        for r in rows(dump(), argv[2]):
            print(line(*r))
        return 0
    if len(argv) == 5 and argv[1] == "wait" and argv[3] in TESTS:
        test = TESTS[argv[3]]
        t0 = time.monotonic()
        while True:
            found = rows(dump(), argv[2])
            done = test(found)
            if done or time.monotonic() - t0 > float(argv[4]):
                break
            time.sleep(0.3)
        print("after %d ms" % ((time.monotonic() - t0) * 1000))
        for r in found:
            print(line(*r))
        return 0 if done else 1
    sys.stderr.write(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
