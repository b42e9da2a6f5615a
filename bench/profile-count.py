#!/usr/bin/env python3
"""Instructions of a callgrind run without the fake device's.

    profile-count.py FILE...    one line a file: its instructions (Ir)
                                minus those of every call into the fake
                                device's library from outside it

The unit tier's fake V4L2 device (tests/fakedev, loaded with LD_PRELOAD)
stands in for the kernel: its read(), write(), ioctl(), poll(), open() and
close() do in user space what the driver does in the kernel.  On a card
those are system calls, and callgrind counts none of a system call's work;
so here a call into the fake's library (libfakev4l2.so) from outside it
counts nothing, whatever the fake does inside it (the frame it generates,
its model of POLLPRI, its lookups).  The C library's wrapper of the system
call the fake makes or passes on is left out with it.  What is left is
the process's own work in user space, the same as on the kernel's device.

The calls are read from the file's call lines (cob=, calls=, and the cost
line after it: the call's inclusive cost), callgrind's format
(valgrind's docs, "Callgrind Format Specification").
"""
import re
import sys

FAKE = "libfakev4l2.so"


def count(path):
    names = {}  # compressed object names: id -> name
    ob = callee = None
    total = fake = 0
    want_cost = False
    with open(path) as f:
        for line in f:
            if want_cost:
                want_cost = False
                fields = line.split()
                if len(fields) > 1 and callee is not None and \
                        callee.endswith(FAKE) and not (ob or "").endswith(FAKE):
                    fake += int(fields[1])
                callee = None
                continue
            m = re.match(r"(c?ob)=(?:\((\d+)\))? ?(.*)$", line.rstrip("\n"))
            if m:
                name = m.group(3)
                if m.group(2):
                    if name:
                        names[m.group(2)] = name
                    name = names.get(m.group(2), "")
                if m.group(1) == "ob":
                    ob = name
                else:
                    callee = name
                continue
            if line.startswith("calls="):
                want_cost = True
                if callee is None:
                    callee = ob
                continue
            if line.startswith("summary:") or line.startswith("totals:"):
                total = int(line.split()[1])
    return total - fake


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit("usage: profile-count.py CALLGRIND-FILE...")
    for p in sys.argv[1:]:
        print(count(p))
