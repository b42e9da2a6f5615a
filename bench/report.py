#!/usr/bin/env python3
"""Tables of a bench run: bench/report.py RESULTS.TXT (markdown on stdout).

Each cell's contenders are compared with the cell's bare loop.  The ratio is
taken within each repetition (contender / bare of the same repetition, the
runs next to each other in time) and the median of those ratios is shown, with
their range; absolute figures are medians over the repetitions.
"""
import collections
import shlex
import statistics
import sys

BASELINE = {
    "capture": {None: "bare-longpoll"},
    "startup": {None: "bare-longpoll"},
    "latency": {None: "bare"},
    "multi": {None: "bare-procs"},
    "slow": {None: "bare-longpoll"},
    "floor": {None: "bare-longpoll"},
    "loopback": {None: "bare"},
    "soak": {None: "bare", "mem": "bare-mem"},
    "output": {"mem": "bare-mem", "file": "bare-file"},
    "output-fast": {"mem": "bare-mem", "file": "bare-file"},
    "vivid-out": {"mem": "bare-mem", "file": "bare-file"},
}


def parse(path):
    runs, header = [], []
    with open(path) as f:
        for line in f:
            line = line.strip()
            if not line:
                continue
            if line.startswith("#"):
                header.append(line[1:].strip())
                continue
            d = {}
            for tok in shlex.split(line):
                if "=" in tok:
                    k, v = tok.split("=", 1)
                    d[k] = v
            runs.append(d)
    return header, runs


def num(d, k):
    try:
        return float(d[k])
    except (KeyError, ValueError):
        return None


def med(xs):
    xs = [x for x in xs if x is not None]
    return statistics.median(xs) if xs else None


def rng(xs):
    xs = [x for x in xs if x is not None]
    if len(xs) < 2:
        return ""
    return "%.3g–%.3g" % (min(xs), max(xs))


def fmt(x, f="%.1f"):
    return "–" if x is None else f % x


def with_range(xs):
    """The median, and the range in parentheses when there are several."""
    return fmt(med(xs)) + (" (%s)" % rng(xs) if rng(xs) else "")


def kind(contender):
    for k in ("mem", "file"):
        if contender.endswith("-" + k):
            return k
    return None


def lost(group, d, reader):
    """Frames lost: by the stamped counter, by the reader on the far side of
    the loopback, or against the device's rate by the wall clock."""
    if "error" in d:
        return None
    if "meter_lost" in d:  # several devices at once, counted by the tool
        return num(d, "meter_lost")
    if "seq_lost" in d:
        return num(d, "seq_lost")
    if group in ("output", "output-fast", "soak") and reader is not None:
        if "error" in reader or group == "output-fast":
            return None
        fps = num(reader, "fps") or 30
        exp = round(num(reader, "span_s") * fps) + 1
        return max(0, exp - num(reader, "frames"))
    fps = num(d, "fps")
    if not fps or group in ("output", "output-fast", "vivid-out"):
        return None
    exp = round(num(d, "span_s") * fps) + 1
    return max(0, exp - num(d, "frames"))


def main():
    header, runs = parse(sys.argv[1])
    readers = {}
    for d in runs:
        if d["group"].endswith("-reader"):
            readers[(d["group"][:-7], d["cell"], d["contender"], d["rep"])] = d
    cells = collections.OrderedDict()
    for d in runs:
        g = d["group"]
        if g.endswith("-reader") or g.endswith("-writer"):
            continue
        cells.setdefault((g, d["cell"]), collections.OrderedDict()).setdefault(
            d["contender"], []).append(d)

    print("Run: " + "; ".join(header) + "\n")
    for (g, cell), byc in cells.items():
        base_of = BASELINE.get(g, {None: "bare"})
        print("### %s / %s\n" % (g, cell))
        print("| contender | CPU/frame µs (range) | ratio to bare (range) "
              "| of it sys µs (range) | switches/frame vol, invol "
              "| CPU/MB µs | start-up CPU ms | 1st buffer ms | peak RSS KiB "
              "| frames (median) | fps | lost (median, max) "
              "| delay ms: median, p95 (range of medians) | errors |")
        print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
        for c, ds in byc.items():
            ok = [d for d in ds if "error" not in d]
            errs = [d["error"] for d in ds if "error" in d]
            cpf = [num(d, "cpu_per_frame_us") for d in ok]
            base = byc.get(base_of.get(kind(c), base_of.get(None, "bare")))
            if base is None:  # runs made before the bare-longpoll baseline
                base = byc.get("bare")
            ratios = []
            if base:
                bymrep = {b["rep"]: b for b in base if "error" not in b}
                for d in ok:
                    b = bymrep.get(d["rep"])
                    if b and num(b, "cpu_per_frame_us"):
                        ratios.append(num(d, "cpu_per_frame_us") /
                                      num(b, "cpu_per_frame_us"))
            mb = [num(d, "cpu_per_frame_us") / (num(d, "frame_bytes") / 1e6)
                  for d in ok if num(d, "frame_bytes")]
            fps = [num(d, "frames") / num(d, "span_s") for d in ok
                   if num(d, "span_s")]
            ls = [lost(g, d, readers.get((g, cell, c, d["rep"]))) for d in ok]
            ls = [x for x in ls if x is not None]
            # sys and switches: runs made before they were recorded show "–"
            sys_ = [num(d, "sys_per_frame_us") for d in ok]
            sys_col = fmt(med(sys_))
            if rng(sys_):
                sys_col += " (%s)" % rng(sys_)
            lat = [num(d, "lat_med_ms") for d in ok]
            lat_col = "–"
            if med(lat) is not None:
                lat_col = "%s, %s" % (fmt(med(lat), "%.2f"), fmt(med(
                    [num(d, "lat_p95_ms") for d in ok]), "%.2f"))
                if rng(lat):
                    lat_col += " (%s)" % rng(lat)
            print("| %s | %s (%s) | %s (%s) | %s | %s, %s | %s | %s | %s "
                  "| %s | %s | %s | %s | %s | %s |"
                  % (c, fmt(med(cpf)), rng(cpf), fmt(med(ratios), "%.3f"),
                     rng(ratios), sys_col,
                     fmt(med([num(d, "vcsw_per_frame") for d in ok]), "%.2f"),
                     fmt(med([num(d, "ivcsw_per_frame") for d in ok]), "%.2f"),
                     fmt(med(mb), "%.0f"),
                     fmt(med([num(d, "startup_cpu_ms") for d in ok])),
                     with_range([num(d, "ttfb_ms") for d in ok]),
                     fmt(med([num(d, "maxrss_kb") for d in ok]), "%.0f"),
                     fmt(med([num(d, "frames") for d in ok]), "%.0f"),
                     fmt(med(fps)),
                     ("%s, %s" % (fmt(med(ls), "%.0f"), fmt(max(ls), "%.0f")))
                     if ls else "–", lat_col,
                     "; ".join(sorted(set(errs))) if errs else ""))
        print()


if __name__ == "__main__":
    main()
