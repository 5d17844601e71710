#!/bin/bash
# Restructure, H200 run 1: the GPU tests of the new build, and the fields' hashes on CUDA of the
# old binary (d19f962) and the new one, every built-in scene and variant, both block widths,
# every resolver (--resolver all: all seven step in turn and are checked bitwise identical).
source docs/results/restructure/h200-setup.sh
N=$C/new; O=$C/old
{ pwd; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
  $N/test_vbm_gpu --gtest_brief=1
  $N/test_solver_resolvers --gtest_brief=1 --gtest_filter='Gpu*'
  $N/test_render --gtest_brief=1 --gtest_filter='Gpu*'
  $N/test_bench_cli --gtest_brief=1
  $N/vbm-check --gpu; echo "vbm-check rc=$?"
  $N/cuda-stencil-consumer; echo "cuda-stencil-consumer rc=$?"; } > $OUT/tests.log 2>&1
grep -E "PASSED|FAILED|passed,|rc=|^/" $OUT/tests.log
for v in old new; do
  ALL_RESOLVERS=1 scripts/fields-hashes.sh $C/$v/vbm-fluid cuda 12 3 > $OUT/hashes-$v-cuda.txt 2>&1
  echo "hashes $v rc=$? lines=$(wc -l < $OUT/hashes-$v-cuda.txt)"
done
diff $OUT/hashes-old-cuda.txt $OUT/hashes-new-cuda.txt && echo "CUDA hashes: old == new"
grep -c "identical=yes" $OUT/hashes-new-cuda.txt
$N/vbm-fluid --headless --frames 14 --resolver all --interop on > $OUT/fluid-all.log 2>&1; echo "fluid rc=$?"
grep -E "identical|Host copies|interop:" $OUT/fluid-all.log
