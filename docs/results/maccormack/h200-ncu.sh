#!/bin/bash
# Issue 14 (MacCormack), H200 run 3: ncu on one forward (Advect) and one correction
# (MacCormackCorrect) launch of the 4.2M plume, to see why the correction costs 1.7x the forward pass.
gunzip -f .carry/lib/*.gz 2>/dev/null
source docs/results/restructure/h200-setup.sh
N=$C/new
S=docs/results/maccormack
for k in Advect MacCormack; do
  timeout 200 ncu --clock-control none --kernel-name-base demangled --kernel-name regex:"$k" --launch-skip 10 --launch-count 1 \
    --section LaunchStats --section Occupancy --section SpeedOfLight --section MemoryWorkloadAnalysis \
    $N/vbm-fluid --headless --scene $S/smoke-plume-4m-mc.scene --frames 60 --render none > $OUT/ncu-$k.txt 2>&1
  echo "$k rc=$?"; grep -E "Registers Per|Local Memory|Achieved Occupancy|Duration|DRAM Throughput|Memory Throughput|Compute \(SM\)|Theoretical Occ|Block Limit Reg|L1/TEX Hit|L2 Hit" $OUT/ncu-$k.txt | head -16
done
