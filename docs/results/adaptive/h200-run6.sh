#!/bin/bash
# Adaptive topology (issue 13), H200 run 6: the one-build dilation (CudaDilation.cuh, binaries at
# d5dfb3e in .carry/new) against the one-voxel-per-call DilateGrid chain (06e2750 in
# .carry/old). The GPU tests and memcheck of the device dilation; the fields after 40 steps of
# both adaptive scenes, every resolver and width, old and new (equal topology gives equal bits);
# then the adaptive bench, new, old, new (the topology phase side by side; the new bench's
# windows start with the rebuild, the old one's end with it).
source docs/results/restructure/h200-setup.sh
N=$C/new; O=$C/old; L=$OUT/f.log
{ pwd; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u; } > $L
{ timeout 120 bash -c "$N/test_adapt_gpu --gtest_brief=1; $N/test_solver_resolvers --gtest_brief=1 --gtest_filter='Gpu*';
  $N/test_bench_cli --gtest_brief=1"; echo "tests rc=$?"; } >> $L 2>&1
{ timeout 90 compute-sanitizer --tool memcheck $N/test_adapt_gpu --gtest_filter='*Dilation*:*Topology*' | tail -4; echo "memcheck rc=$?"; } >> $L 2>&1
for v in new old; do
  { ALL_RESOLVERS=1 SCENES="smoke-open smoke-open-4m" timeout 100 scripts/fields-hashes.sh $C/$v/vbm-fluid cuda 40 > $OUT/hashes-$v.txt; echo "hashes $v rc=$?"; } >> $L 2>&1
done
cat $OUT/hashes-new.txt >> $L; diff $OUT/hashes-old.txt $OUT/hashes-new.txt >> $L && echo "adaptive CUDA hashes: 06e2750 == d5dfb3e" >> $L
for v in new old new; do
  { echo "== bench $v"; timeout 100 $C/$v/vbm-bench --solver smoke-open-4m --grow-steps 60 --steps 40 --json $OUT/bench-$v.json; echo "bench $v rc=$?"; } >> $L 2>&1
done
tr '\r' '\n' < $L | grep -v "solver step\|^\[vbm-fluid\] frame\|window [0-9]\|growing: step [0-9]*/60, [0-9]* active voxels   $" | tail -90
