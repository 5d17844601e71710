#!/bin/bash
# Issue 15, H200 run 32 (session 18): where a step's time goes with the voxel tap table, from ncu
# (kernels serialized, caches not flushed, clocks not locked), for docs/bench's account of the
# targets left: a: 600 consecutive launches of the 4.2M plume with --tap-table on (steady state,
# after 20,000 launches); b: every launch of one step of the 1B plume with --tap-table on.
# Durations and DRAM bytes per launch; docs/results/issue15/kernel-classes.py sums them by kind.
source docs/results/issue15/h200-setup.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
M=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum
timeout 250 ncu --clock-control none --cache-control none --kernel-name-base demangled --launch-skip 20000 \
  --launch-count 600 --metrics $M --csv $C/new/vbm-fluid --headless --render none --scene smoke-plume-4m \
  --frames 400 --tap-table on > /tmp/ncu-4m.csv 2>/tmp/ncu-4m.err; echo "ncu 4m rc=$?"
grep -v "^\[vbm" /tmp/ncu-4m.csv | gzip > $OUT/ncu-4m-table.csv.gz
timeout 330 ncu --clock-control none --cache-control none --kernel-name-base demangled --metrics $M --csv \
  $C/new/vbm-fluid --headless --render none --scene docs/results/issue15/smoke-plume-1b.scene --frames 1 \
  --tap-table on --timings /tmp/t1b.csv > /tmp/ncu-1b.csv 2>/tmp/ncu-1b.err; echo "ncu 1b rc=$?"
grep -v "^\[vbm" /tmp/ncu-1b.csv | gzip > $OUT/ncu-1b-table.csv.gz; cp /tmp/t1b.csv $OUT/timings-1b-ncu.csv
tail -n 3 /tmp/ncu-4m.err /tmp/ncu-1b.err
