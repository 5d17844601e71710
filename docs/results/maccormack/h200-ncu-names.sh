#!/bin/bash
# Issue 14, H200: the kernel names ncu sees in one smoke step (to filter the next run by them).
gunzip -f .carry/lib/*.gz 2>/dev/null
source docs/results/restructure/h200-setup.sh
N=$C/new
timeout 200 ncu --clock-control none --section LaunchStats --launch-count 40 \
  $N/vbm-fluid --headless --scene docs/results/maccormack/smoke-plume-4m-mc.scene --frames 1 --render none > $OUT/names.txt 2>&1
grep -E "^  [a-zA-Z_].*\(" $OUT/names.txt | sed 's/(.*//' | sort | uniq -c | head -30
