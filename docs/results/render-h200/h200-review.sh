#!/bin/bash
# After the review commit (one camera basis, shared by the renderer and the look tests): the GPU
# render tests, the look tests on the NVIDIA driver, and the 1080p budget run again on the H200.
source docs/results/restructure/h200-setup.sh
for t in test_render test_render_look; do ln -sf $C/new/$t build/bin/$t; done
B=build/bin
timeout 120 $B/test_render --gtest_filter='GpuRender*' 2>&1 | grep -E "OK|FAILED|PASSED|SKIPPED" ; echo "test_render GpuRender rc=${PIPESTATUS[0]}"
VBM_VULKAN_VALIDATION=1 timeout 120 $B/test_render_look 2>&1 | grep -E "OK|FAILED|PASSED"; echo "test_render_look rc=${PIPESTATUS[0]}"
timeout 120 $B/vbm-fluid --headless --frames 300 --scene smoke-plume-4m --size 1920x1080 --interop on \
  --timings $OUT/plume4m-1080p.csv > $OUT/plume4m-1080p.log 2>&1; echo "1080p rc=$?"
python3 - $OUT/plume4m-1080p.csv <<'PY'
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1])))
for ph in ("render gpu", "render", "step"):
    v = [float(r["ms"]) for r in rows if r["phase"] == ph and 101 <= int(r["frame"]) <= 300]
    print(f"{ph}: steps 101-300 median {statistics.median(v):.3f} min {min(v):.3f} max {max(v):.3f} ms")
PY
