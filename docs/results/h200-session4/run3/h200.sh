#!/bin/bash
# Run 3 (session 4): F (run 1) against H = F + the leaf array read once per voxel in the cached
# box resolver, and the advection body's channel count a compile-time constant (Advect<5>).
# vbm-bench --solver smoke-plume-4m --steps 100, in turns, two rounds; then ncu's source
# counters on one steady-state launch of H's width-128 advection kernel.
V="F H"
for v in $V; do gunzip -f .carry/$v/vbm-bench.gz; chmod +x .carry/$v/vbm-bench; done
for r in 1 2; do for v in $V; do
  .carry/$v/vbm-bench --solver smoke-plume-4m --steps 100 2>/dev/null > /tmp/$v-$r.md
  { echo "## variant $v, round $r"; echo; cat /tmp/$v-$r.md; echo; } >> $OUT/bench-variants.md
  echo "$v-$r: $(grep -E '\*\*step\*\*|^\| advection|pressure CG \||substeps|identical' /tmp/$v-$r.md | tr '\n' ' ')"
done; done
B=.carry/H/vbm-bench
ncu --clock-control none --kernel-name-base demangled -k 'regex:\(int\)7, \(vbm::Resolver\)4, vbm::solver::Advect' \
    --launch-skip 150 --launch-count 1 --section SourceCounters --section WarpStateStats --section InstructionStats \
    --section SpeedOfLight --section Occupancy --section LaunchStats --section MemoryWorkloadAnalysis \
    -o /tmp/adv128 $B --solver smoke-plume-4m --steps 40 > /tmp/adv128.log 2>&1; tail -1 /tmp/adv128.log
ncu --import /tmp/adv128.ncu-rep --page details > $OUT/advect128-details.txt 2>&1
ncu --import /tmp/adv128.ncu-rep --page source --csv --print-source sass > $OUT/advect128-source.csv 2>&1
grep -E "Duration|Registers Per|Achieved Occ|Executed Instructions  |Issued Warp|No Eligible" $OUT/advect128-details.txt
