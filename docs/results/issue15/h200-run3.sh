#!/bin/bash
# Issue 15, H200 run 3: N = 6f1ef4c (run 1's working tree, committed), T = N + the per-leaf
# neighbour tables (LeafNeighbourTable.h: the cached resolvers read a leaf's row from a table
# built once per topology instead of staging rows per block). Resolver comparison N/T/N/T
# (small, thin, C = 1), T in full with JSON; the 4.2M plume N and T; ncu counters of T.
source docs/results/issue15/h200-setup.sh
N=$C/old T=$C/new X="timeout 200"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
for i in 1 2; do for v in N T; do eval B=\$$v
  $X $B/vbm-bench --grid small --grid thin --channels 1 --no-decode > $OUT/ab-$v-$i.md 2>&1; echo "$v$i rc=$?"; done; done
$X $T/vbm-bench --json $OUT/bench-T.json > $OUT/bench-T.md 2>&1; echo "T full rc=$?"
for v in N T; do eval B=\$$v; $X $B/vbm-bench --solver smoke-plume-4m --steps 300 > $OUT/plume-$v.md 2>&1
  echo "$v plume rc=$? $(grep -E '\*\*step\*\*|B/voxel|identical' $OUT/plume-$v.md | head -3 | tr '\n' ' ')"; done
$X ncu --clock-control none --kernel-name-base demangled --kernel-name 'regex:vbmConsumer|denseConsumer' -c 12 \
  --metrics gpu__time_duration.sum,smsp__inst_executed.sum,launch__registers_per_thread,sm__warps_active.avg.pct_of_peak_sustained_active,dram__bytes.sum --section WarpStateStats \
  $T/vbm-bench --grid thin --channels 1 --widths 128 --rounds 50 --warmup 1 --no-decode > $OUT/ncu.txt 2>&1; echo "ncu rc=$?"
grep -v "timed round" $OUT/ncu.txt > $OUT/ncu-T.txt; rm -f $OUT/ncu.txt
