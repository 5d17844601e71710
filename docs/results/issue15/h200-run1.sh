#!/bin/bash
# Issue 15, H200 run 1: O = fb63de0 (before), N = the working tree (32-bit in-leaf tap
# arithmetic shared by both resolver families, per-axis neighbour lookups, row popcounts,
# ghost-cell dense floor, 59 B/voxel smoke). Resolver comparison O/N/O/N (small, thin, C = 1)
# and N in full; the 4.2M plume O and N; ncu counters of N's consumers. (Tests: run 2.)
source docs/results/issue15/h200-setup.sh
O=$C/old N=$C/new T="timeout 240"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
for i in 1 2; do for v in O N; do eval B=\$$v
  $T $B/vbm-bench --grid small --grid thin --channels 1 --no-decode > $OUT/ab-$v-$i.md 2>&1; echo "$v$i rc=$?"; done; done
$T $N/vbm-bench --json $OUT/bench-N.json > $OUT/bench-N.md 2>&1; echo "N full rc=$?"
for v in O N; do eval B=\$$v; $T $B/vbm-bench --solver smoke-plume-4m --steps 300 > $OUT/plume-$v.md 2>&1
  echo "$v plume rc=$? $(grep -E '\*\*step\*\*|B/voxel|identical' $OUT/plume-$v.md | head -3 | tr '\n' ' ')"; done
$T ncu --clock-control none --kernel-name-base demangled --kernel-name 'regex:vbmConsumer<7|denseConsumer<1' -c 9 \
  --metrics gpu__time_duration.sum,smsp__inst_executed.sum,launch__registers_per_thread,sm__warps_active.avg.pct_of_peak_sustained_active,dram__bytes.sum,l1tex__t_bytes.sum \
  $N/vbm-bench --grid thin --channels 1 --widths 128 --rounds 50 --warmup 1 --no-decode > $OUT/ncu-N.txt 2>&1; echo "ncu rc=$?"
cd $OUT && tar czf results.tgz *.md *.txt *.log *.json && ls
