#!/bin/bash
# Adaptive topology (issue 13), H200 run 5 (as run 4, with the bench in windows from fresh snapshots): run 3b's bench was stopped by its time limit after
# growing to 57M voxels (the comparison at that size takes minutes), so here the comparison at
# about 5M active voxels (60 steps of growth), and 120 frames of smoke-open-4m with a picture.
source docs/results/restructure/h200-setup.sh
N=$C/new; L=$OUT/d.log
{ pwd; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u; } > $L
{ timeout 120 $N/vbm-bench --solver smoke-open-4m --grow-steps 60 --steps 40 --json $OUT/bench-open-4m.json; echo "bench rc=$?"; } >> $L 2>&1
tr '\r' '\n' < $L | grep -v "solver step\|^\[vbm-fluid\] frame" | tail -60
