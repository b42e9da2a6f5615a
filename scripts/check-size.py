#!/usr/bin/env python3
# fgrab
# Copyright (C) 2026 The fgrab authors
# SPDX-License-Identifier: LGPL-2.1-or-later
"""The plugin's sizes: no C file over 900 lines, no function over 80.

  scripts/check-size.py SRC

Walks the .c files under SRC (gst/fgrab and its folders).  A function is
counted from the line that names it (GNU style: "name (" at the start of
a line) to its closing brace at the start of a line.  Prints each file
and function over its limit and exits 1 if there is one.
"""

import os
import re
import sys

MAX_FILE_LINES = 900
MAX_FUNCTION_LINES = 80
START = re.compile(r"^([a-z_][a-z0-9_]*) \(")


def check(path):
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    found = []
    if len(lines) - 1 > MAX_FILE_LINES:
        found.append(f"{path}: {len(lines) - 1} lines (at most "
                     f"{MAX_FILE_LINES})")
    name = None
    for i, line in enumerate(lines):
        m = START.match(line)
        if m and not line.rstrip().endswith(";"):
            name, start = m.group(1), i
        elif line.startswith("}") and name:
            if i - start > MAX_FUNCTION_LINES:
                found.append(f"{path}:{start + 1}: {name} is {i - start} "
                             f"lines (at most {MAX_FUNCTION_LINES})")
            name = None
    return found


def main():
    found = []
    for top, dirs, files in os.walk(sys.argv[1]):
        dirs.sort()
        for name in sorted(files):
            if name.endswith(".c"):
                found += check(os.path.join(top, name))
    for line in found:
        print(line)
    print(f"size: {len(found)} over the limits")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
