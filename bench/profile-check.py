#!/usr/bin/env python3
"""The test suite's check of docs/performance.md's capture figures (meson
suite perf, bench/meson.build): callgrind counts the instructions a frame
of the bare read loop, floorsrc do-timestamp=true and fgrabsrc as
bench/profile.sh does (a 50- and a 250-frame run each, the fake device's
work left out: bench/profile-count.py), and the check fails

- when fgrabsrc's overhead above the bare loop passes 1.10 times the
  timestamping floor's, or
- when the table "Capture (`... ! fakesink sync=false`)" of the page
  gives other figures than measured (more than NOISE instructions a frame
  apart: a contender's count varies by about +-40 from run to run), or a
  ratio that its own figures do not give.

Instruction counts do not depend on the machine's speed or load; the six
runs take about 40 s.

    profile-check.py --prog PROFILE-FAKE --fake LIBFAKEV4L2 --doc PAGE
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

import importlib.util

_spec = importlib.util.spec_from_file_location(
    "profile_count", os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                  "profile-count.py"))
profile_count = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(profile_count)

N1, N2 = 50, 250
LIMIT = 1.10
NOISE = 100
# the table's rows: its label -> profile-fake's mode
ROWS = {"bare poll()+read() loop": "bare",
        "floorsrc do-timestamp=true": "floor-ts",
        "**fgrabsrc**": "src"}


def run(args, tmp, mode, n):
    out = os.path.join(tmp, "cg-%s-%d.out" % (mode, n))
    env = dict(os.environ, LD_PRELOAD=args.fake)
    r = subprocess.run(["valgrind", "--tool=callgrind",
                        "--callgrind-out-file=" + out, args.prog, mode,
                        str(n)], env=env, capture_output=True, text=True)
    lost = [l for l in r.stderr.splitlines() if l.startswith("profile-fake:")]
    if r.returncode != 0 or lost:
        sys.exit("profile-check: %s %d failed (exit %d):\n%s" %
                 (mode, n, r.returncode, r.stderr[-2000:]))
    return profile_count.count(out)


def doc_rows(path):
    """The capture table's figure a frame of each row, and its ratio."""
    rows = {}
    with open(path) as f:
        text = f.read()
    m = re.search(r"^Capture \(`[^\n]*\n\n((?:\|[^\n]*\n)+)", text, re.M)
    if not m:
        sys.exit("profile-check: no capture table in %s" % path)
    for line in m.group(1).splitlines():
        cells = [c.strip() for c in line.strip("|").split("|")]
        if cells[0] in ROWS:
            rows[ROWS[cells[0]]] = (int(cells[1].replace(",", "")),
                                    cells[4].strip("*"))
    missing = set(ROWS.values()) - set(rows)
    if missing:
        sys.exit("profile-check: the capture table of %s has no row for %s"
                 % (path, ", ".join(sorted(missing))))
    return rows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--prog", required=True)
    ap.add_argument("--fake", required=True)
    ap.add_argument("--doc", required=True)
    args = ap.parse_args()
    doc = doc_rows(args.doc)
    per = {}
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["GST_REGISTRY"] = os.path.join(tmp, "registry.bin")
        # the registry made outside valgrind (profile.sh does the same)
        subprocess.run([args.prog, "src", "2"], capture_output=True,
                       env=dict(os.environ, LD_PRELOAD=args.fake), check=True)
        for mode in ROWS.values():
            a, b = run(args, tmp, mode, N1), run(args, tmp, mode, N2)
            per[mode] = (b - a) // (N2 - N1)
    over = per["src"] - per["bare"]
    floor = per["floor-ts"] - per["bare"]
    ratio = over / floor
    print("instructions a frame: bare loop %d, floorsrc do-timestamp=true %d, "
          "fgrabsrc %d; fgrabsrc's overhead %d = %.2f x the floor's %d"
          % (per["bare"], per["floor-ts"], per["src"], over, ratio, floor))
    fail = []
    if ratio > LIMIT:
        fail.append("fgrabsrc costs %.2f x the timestamping floor above the "
                    "bare loop, more than %.2f" % (ratio, LIMIT))
    for mode, (figure, _) in doc.items():
        if abs(figure - per[mode]) > NOISE:
            fail.append("%s: the page says %d instructions a frame, measured "
                        "%d: run bench/profile.sh capture and update the table"
                        % (mode, figure, per[mode]))
    doc_ratio = "%.2f" % ((doc["src"][0] - doc["bare"][0]) /
                          (doc["floor-ts"][0] - doc["bare"][0]))
    if doc["src"][1] != doc_ratio:
        fail.append("the page's ratio for fgrabsrc is %s, its figures give %s"
                    % (doc["src"][1], doc_ratio))
    for f in fail:
        print("profile-check: " + f, file=sys.stderr)
    return 1 if fail else 0


if __name__ == "__main__":
    sys.exit(main())
