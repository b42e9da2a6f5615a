#!/usr/bin/env python3
# fgrab
# Copyright (C) 2026 The fgrab authors
# SPDX-License-Identifier: LGPL-2.1-or-later
"""The plugin's dependency graph: circles and arrows that run up a floor.

A unit is a .c file with the header of the same name (NAME-private.h
belongs to NAME).  Unit A depends on unit B when A includes one of B's
headers, or when A's object file uses a symbol that only B's object file
defines (nm).  Floors, from the top, are given by a layers file (one line
a floor: "floor-name: unit unit ..."); a unit may depend on units of its
own floor or of floors below it, never on one above, and no set of units
may depend on each other in a circle.

  scripts/depgraph.py --objects DIR --layers FILE [--baseline FILE] SRC

Prints every circle and every upward arrow, with the include lines and
symbols that make it, every function declared in one unit's header but
defined in another's file (misplaced), and every function a unit exports
that no other unit, test or benchmark (--users) uses (alone: it should
be static).  With --baseline (the known ones, as this script
prints them with --print-baseline), only new findings fail (exit 1) and
findings that have gone are named, so the list can only shrink.
"""

import argparse
import os
import re
import subprocess
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def unit_of(path):
    stem = os.path.splitext(os.path.basename(path))[0]
    return stem[:-len("-private")] if stem.endswith("-private") else stem


def sources(src):
    """The .c and .h files under src (its subfolders too), as paths
    relative to src."""
    found = []
    for top, dirs, files in os.walk(src):
        dirs.sort()
        for name in sorted(files):
            if name.endswith((".c", ".h")):
                found.append(os.path.relpath(os.path.join(top, name), src))
    return found


def include_edges(src):
    """{(a, b): [reason]} for a's sources including b's headers (an
    include is looked up beside the file, then from src, as the plugin's
    include path does)."""
    files = sources(src)
    units = {unit_of(f) for f in files}
    edges = {}
    for name in files:
        a = unit_of(name)
        here = os.path.dirname(name)
        with open(os.path.join(src, name), encoding="utf-8") as f:
            for inc in INCLUDE.findall(f.read()):
                path = os.path.normpath(os.path.join(here, inc))
                if path not in files:
                    path = os.path.normpath(inc)
                b = unit_of(inc)
                if b != a and path in files:
                    edges.setdefault((a, b), []).append(
                        f"{name} includes {inc}")
    return units, edges


def nm(obj, *flags):
    out = subprocess.run(["nm", *flags, obj], check=True, text=True,
                         capture_output=True).stdout
    return {line.split()[-1] for line in out.splitlines() if line.strip()}


def object_unit(name, units):
    """The unit of meson's object file NAME: a source in a subfolder
    DIR/UNIT.c is compiled to DIR_UNIT.c.o."""
    stem = name[:-len(".c.o")]
    for u in units:
        if stem == u or stem.endswith("_" + u):
            return u
    return unit_of(stem)


PROTOTYPE = re.compile(r"^[A-Za-z_].*?\b(fgrab_\w+|gst_fgrab_\w+) \(", re.M)


def misplaced(src, defined):
    """A function declared in one unit's header and defined in another's
    object file: 'NAME declared in A.h, defined in B.c'."""
    owner = {s: u for u, symbols in defined.items() for s in symbols}
    out = []
    for name in sources(src):
        if not name.endswith(".h"):
            continue
        with open(os.path.join(src, name), encoding="utf-8") as f:
            for fn in PROTOTYPE.findall(f.read()):
                home = owner.get(fn)
                if home is not None and home != unit_of(name):
                    out.append(f"{fn} declared in {name}, defined in "
                               f"{home}.c")
    return sorted(out)


def mentioned(folders):
    """Every word of the C sources under @folders (the tests and benchmarks
    that compile a unit of the plugin in)."""
    words = set()
    for folder in folders:
        for name in sources(folder):
            with open(os.path.join(folder, name), encoding="utf-8") as f:
                words.update(re.findall(r"\w+", f.read()))
    return words


def alone(defined, edges, users):
    """Functions a unit exports that no other unit (nor a test or benchmark
    in @users) uses: they should be static."""
    used = {why.split(" uses ")[1] for reasons in edges.values()
            for why in reasons if " uses " in why}
    return sorted(f"{sym} exported by {unit}.c, used by no other file"
                  for unit, symbols in defined.items() for sym in symbols
                  if sym.startswith("fgrab_") and sym not in used
                  and sym not in users)


def defined_symbols(objects, units):
    """{unit: exported symbols of its object file}."""
    return {object_unit(name, units): nm(os.path.join(objects, name),
                                         "--defined-only", "--extern-only")
            for name in sorted(os.listdir(objects)) if name.endswith(".c.o")}


def call_edges(objects, units):
    """{(a, b): [reason]} for a's object using symbols defined in b's."""
    defined, used = {}, {}
    for name in sorted(os.listdir(objects)):
        if not name.endswith(".c.o"):
            continue
        obj = os.path.join(objects, name)
        unit = object_unit(name, units)
        defined[unit] = nm(obj, "--defined-only", "--extern-only")
        used[unit] = nm(obj, "--undefined-only")
    owner = {}
    for unit, symbols in defined.items():
        for s in symbols:
            owner.setdefault(s, unit)
    edges = {}
    for a, symbols in used.items():
        for s in sorted(symbols):
            b = owner.get(s)
            if b is not None and b != a:
                edges.setdefault((a, b), []).append(f"{a} uses {s}")
    return edges


def read_layers(path):
    floor_of, names = {}, []
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            name, units = line.split(":", 1)
            names.append(name.strip())
            for u in units.split():
                floor_of[u] = len(names) - 1
    return floor_of, names


def circles(units, edges):
    """The strongly connected sets of more than one unit (Tarjan)."""
    succ = {u: sorted(b for (a, b) in edges if a == u) for u in units}
    index, low, stack, on, found = {}, {}, [], set(), []

    def visit(u):
        index[u] = low[u] = len(index)
        stack.append(u)
        on.add(u)
        for v in succ[u]:
            if v not in index:
                visit(v)
                low[u] = min(low[u], low[v])
            elif v in on:
                low[u] = min(low[u], index[v])
        if low[u] == index[u]:
            scc = []
            while True:
                v = stack.pop()
                on.discard(v)
                scc.append(v)
                if v == u:
                    break
            if len(scc) > 1:
                found.append(sorted(scc))

    sys.setrecursionlimit(10000)
    for u in sorted(units):
        if u not in index:
            visit(u)
    return found


def findings(units, edges, floor_of, floor_names):
    """{key: [detail lines]}: each circle and each upward arrow."""
    out = {}
    for scc in circles(units, edges):
        inside = sorted(e for e in edges if e[0] in scc and e[1] in scc)
        out["circle: " + " ".join(scc)] = [
            f"{a} -> {b}: {edges[(a, b)][0]}"
            + (f" (+{len(edges[(a, b)]) - 1} more)"
               if len(edges[(a, b)]) > 1 else "")
            for a, b in inside]
    for (a, b), why in sorted(edges.items()):
        if a in floor_of and b in floor_of and floor_of[b] < floor_of[a]:
            out[f"up: {a} ({floor_names[floor_of[a]]}) -> {b} "
                f"({floor_names[floor_of[b]]})"] = why
    return out


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--objects", required=True,
                   help="the plugin's object files (meson's NAME.p folder)")
    p.add_argument("--layers", required=True)
    p.add_argument("--baseline")
    p.add_argument("--print-baseline", action="store_true")
    p.add_argument("--users", action="append", default=[],
                   help="a folder of tests or benchmarks that may use the "
                   "plugin's exported functions (repeatable)")
    p.add_argument("src")
    args = p.parse_args()

    units, edges = include_edges(args.src)
    for e, why in call_edges(args.objects, units).items():
        edges.setdefault(e, []).extend(why)
    floor_of, floor_names = read_layers(args.layers)
    unplaced = sorted(u for u in units if u not in floor_of)
    found = findings(units, edges, floor_of, floor_names)
    defined = defined_symbols(args.objects, units)
    for line in misplaced(args.src, defined):
        found["misplaced: " + line] = []
    for line in alone(defined, edges, mentioned(args.users)):
        found["alone: " + line] = []

    if args.print_baseline:
        print("\n".join(sorted(found)))
        return 0
    known = set()
    if args.baseline:
        with open(args.baseline, encoding="utf-8") as f:
            known = {line.strip() for line in f
                     if line.strip() and not line.startswith("#")}
    for key in sorted(found):
        print(("known " if key in known else "NEW ") + key)
        for line in found[key]:
            print("    " + line)
    gone = sorted(known - set(found))
    for key in gone:
        print("gone (take it out of the baseline): " + key)
    new = sorted(set(found) - known)
    n_circles = sum(k.startswith("circle") for k in found)
    n_up = sum(k.startswith("up:") for k in found)
    n_alone = sum(k.startswith("alone:") for k in found)
    print(f"{len(units)} units, {len(edges)} arrows, {n_circles} circles, "
          f"{n_up} upward arrows, "
          f"{len(found) - n_circles - n_up - n_alone} misplaced functions, "
          f"{n_alone} exports no other file uses; {len(new)} new, "
          f"{len(gone)} gone")
    for u in unplaced:
        print(f"unit {u} is on no floor of {args.layers}")
    return 1 if new or gone or unplaced else 0


if __name__ == "__main__":
    sys.exit(main())
