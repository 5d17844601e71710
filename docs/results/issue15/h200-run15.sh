#!/bin/bash
# Issue 15, H200 run 15 (session 13): ncu's sections for one CG iteration's multigrid transfers
# (all five levels), the fine residual and the solution update, on main's code (bf27674's
# vbm-fluid, in .carry/old): where the next session's CG work should look. Outputs packed into
# one tar (the device tool returns a limited count of files).
source docs/results/issue15/h200-setup.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
timeout 400 ncu --clock-control none --cache-control none --kernel-name-base demangled \
  --kernel-name 'regex:TrilinearRestrict|TrilinearProlongAdd|UpdateSolution|Residual<' --launch-skip 120 --launch-count 14 \
  --section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats --section Occupancy \
  --section LaunchStats --section SchedulerStats --section ComputeWorkloadAnalysis \
  $C/old/vbm-fluid --headless --render none --scene smoke-plume-4m --frames 60 > /tmp/ncu-cg.txt 2>&1; echo "ncu rc=$?"
grep -v "^\[vbm" /tmp/ncu-cg.txt | gzip > $OUT/ncu-cg-sections.txt.gz
grep -E "^  void|Duration|Achieved Occ|Memory Throughput|L1/TEX Hit|L2 Hit|Warp Cycles Per Issued|Executed Ipc A|Registers Per" /tmp/ncu-cg.txt | sed 's/(unsigned long.*)\s*(/ (/' | head -120
