#!/usr/bin/env python3
"""Median ms per phase over frames [first, last] of vbm-fluid --timings CSVs, one column per file.
usage: window-medians.py FIRST LAST A.csv [B.csv ...]"""
import csv
import statistics
import sys

first, last, files = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3:]
cols, phases = [], []
for f in files:
    by = {}
    for r in csv.DictReader(open(f)):
        if first <= int(r["frame"]) <= last:
            by.setdefault(r["phase"], []).append(float(r["ms"]))
            if r["phase"] not in phases:
                phases.append(r["phase"])
    cols.append(by)
print("| phase | " + " | ".join(files) + " |")
print("|---|" + "---|" * len(files))
for p in phases:
    print(f"| {p} | " + " | ".join(f"{statistics.median(c[p]):.3f}" if p in c else "-" for c in cols) + " |")
