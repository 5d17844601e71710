#!/bin/bash
# Restructure, H200 run 4: the GPU tests again after the final review (StencilChoice ==, the
# command-line reader), and the fields' hashes on CUDA
# against the old binary's from run 1.
source docs/results/restructure/h200-setup.sh
N=$C/new
{ pwd; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
  $N/test_vbm_gpu --gtest_brief=1
  $N/test_solver_resolvers --gtest_brief=1 --gtest_filter='Gpu*'
  $N/test_render --gtest_brief=1 --gtest_filter='Gpu*'
  $N/test_bench_cli --gtest_brief=1
  $N/vbm-check --gpu; echo "vbm-check rc=$?"
  $N/cuda-stencil-consumer; echo "cuda-stencil-consumer rc=$?"; } > $OUT/tests.log 2>&1
grep -E "PASSED|FAILED|passed,|rc=" $OUT/tests.log
ALL_RESOLVERS=1 scripts/fields-hashes.sh $N/vbm-fluid cuda 12 3 > $OUT/hashes-new-cuda.txt 2>&1; echo "hashes rc=$?"
diff docs/results/restructure/run1/hashes-old-cuda.txt $OUT/hashes-new-cuda.txt && echo "CUDA hashes: d19f962 == this commit"
$N/vbm-fluid --headless --frames 14 --resolver all --interop on > $OUT/fluid-all.log 2>&1; echo "fluid rc=$?"
grep -E "identical|Host copies" $OUT/fluid-all.log
