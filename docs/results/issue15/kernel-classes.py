#!/usr/bin/env python3
"""Sums ncu --csv launches (gpu__time_duration, dram__bytes_read/write) by kernel and grid size.
usage: kernel-classes.py NCU.csv[.gz] [DIVISOR]   (DIVISOR: e.g. CG iterations, to show per-iteration times)"""
import collections
import csv
import gzip
import sys

path = sys.argv[1]
div = float(sys.argv[2]) if len(sys.argv) > 2 else 1.0
text = gzip.open(path, "rt") if path.endswith(".gz") else open(path)
lines = [l for l in text if l.startswith('"')]
rows = list(csv.reader(lines))
h = rows[0]
col = {name: h.index(name) for name in ("ID", "Kernel Name", "Grid Size", "Metric Name", "Metric Unit", "Metric Value")}
launch = {}
scale = {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "nsecond": 1e-6, "usecond": 1e-3, "msecond": 1.0, "second": 1e3, "byte": 1.0, "Kbyte": 1e3, "Mbyte": 1e6,
         "Gbyte": 1e9}
for r in rows[1:]:
    if len(r) < len(h) or r[0] == "ID":
        continue
    key = r[col["ID"]]
    rec = launch.setdefault(key, {"name": r[col["Kernel Name"]].split("(")[0].replace("void ", ""),
                                  "grid": r[col["Grid Size"]].split(",")[0].strip("( "), "ms": 0.0, "bytes": 0.0})
    v = float(r[col["Metric Value"]].replace(",", "")) * scale.get(r[col["Metric Unit"]], 1.0)
    if r[col["Metric Name"]] == "gpu__time_duration.sum":
        rec["ms"] += v
    else:
        rec["bytes"] += v
groups = collections.OrderedDict()
for rec in launch.values():
    g = groups.setdefault((rec["name"], rec["grid"]), [0, 0.0, 0.0])
    g[0] += 1
    g[1] += rec["ms"]
    g[2] += rec["bytes"]
total = sum(g[1] for g in groups.values())
print(f"{len(launch)} launches, {total:.3f} ms of kernel time" + (f"; per-unit columns divided by {div:g}" if div != 1 else ""))
print("| kernel | grid | launches | ms (per unit) | share | GB (per unit) | TB/s |")
print("|---|---|---|---|---|---|---|")
for (name, grid), (n, ms, b) in sorted(groups.items(), key=lambda kv: -kv[1][1]):
    tbs = b / (ms * 1e-3) / 1e12 if ms > 0 else 0.0
    print(f"| `{name}` | {grid} | {n} | {ms / div:.3f} | {100 * ms / total:.1f}% | {b / 1e9 / div:.2f} | {tbs:.2f} |")
