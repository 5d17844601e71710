#!/bin/bash
# Adaptive topology (issue 13), H200 run 3, part B: vbm-bench --solver smoke-open-4m (the
# adaptive step against the fixed-topology step on the same voxels, in turns), and 400 frames
# of smoke-open-4m headless with its per-frame active voxels and a picture.
source docs/results/restructure/h200-setup.sh
N=$C/new; L=$OUT/b.log
{ pwd; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u; } > $L
{ timeout 170 $N/vbm-bench --solver smoke-open-4m --grow-steps 300 --steps 120 --json $OUT/bench-open-4m.json; echo "bench rc=$?"; } >> $L 2>&1
{ timeout 100 $N/vbm-fluid --headless --scene smoke-open-4m --frames 400 --timings /tmp/open4m.csv --screenshot $OUT/open4m.png | tail -30; echo "open4m rc=$?"; } >> $L 2>&1
gzip -c /tmp/open4m.csv > $OUT/open4m.csv.gz
tr '\r' '\n' < $L | grep -v "^\[vbm-bench\] solver step" | tail -40
