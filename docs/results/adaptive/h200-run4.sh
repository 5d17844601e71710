#!/bin/bash
# Adaptive topology (issue 13), H200 run 4: run 3b's bench was stopped by its time limit after
# growing to 57M voxels (the comparison at that size takes minutes), so here the comparison at
# about 5M active voxels (60 steps of growth), and 120 frames of smoke-open-4m with a picture.
source docs/results/restructure/h200-setup.sh
N=$C/new; L=$OUT/c.log
{ pwd; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u; } > $L
{ timeout 120 $N/vbm-bench --solver smoke-open-4m --grow-steps 60 --steps 60 --json $OUT/bench-open-4m.json; echo "bench rc=$?"; } >> $L 2>&1
{ timeout 70 $N/vbm-fluid --headless --scene smoke-open-4m --frames 120 --size 960x720 --timings /tmp/open4m.csv --screenshot $OUT/open4m.png | tail -32; echo "open4m rc=$?"; } >> $L 2>&1
gzip -c /tmp/open4m.csv > $OUT/open4m.csv.gz
tr '\r' '\n' < $L | grep -v "solver step\|^\[vbm-fluid\] frame" | tail -60
