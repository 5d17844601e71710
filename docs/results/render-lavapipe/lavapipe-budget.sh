#!/bin/bash
# Issue 14's lavapipe budget: every CPU-sized built-in scene at 640x480 on the CPU backend,
# rendered by Mesa's lavapipe with the default look (lit, half-resolution rays, 32 light cells),
# 120 frames; the render's median and max from the timings file.
cd "$(dirname "$0")/../../.."
out=docs/results/render-lavapipe
for s in fire-small fire smoke-open heat-block heat-shell smoke-plume; do
  build/bin/vbm-fluid --headless --backend cpu --frames 120 --scene $s --size 640x480 \
    --timings /tmp/lp-$s.csv > $out/$s.log 2>&1
  python3 - "$s" <<'PY'
import csv, statistics, sys
s = sys.argv[1]
rows = list(csv.DictReader(open(f"/tmp/lp-{s}.csv")))
for ph in ("render gpu", "render", "step", "frame"):
    v = [float(r["ms"]) for r in rows if r["phase"] == ph]
    print(f"| {s} | {ph} | {statistics.median(v):.1f} | {min(v):.1f} | {max(v):.1f} |")
PY
done
