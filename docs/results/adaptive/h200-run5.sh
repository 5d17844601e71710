#!/bin/bash
# Adaptive topology (issue 13), H200 run 5 (binaries at 06e2750): the GPU tests on the code
# changed since run 3 (ensureRoom, `speed S`, the shared VBM extent), then the bench in windows
# of K steps, each from a fresh snapshot (both sides step the same voxels), after 60 steps of
# growth (about 5M active voxels).
source docs/results/restructure/h200-setup.sh
N=$C/new; L=$OUT/e.log
{ pwd; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u; } > $L
{ timeout 150 bash -c "$N/test_adapt_gpu --gtest_brief=1; $N/test_vbm_gpu --gtest_brief=1;
  $N/test_solver_resolvers --gtest_brief=1 --gtest_filter='Gpu*'; $N/test_render --gtest_brief=1 --gtest_filter='Gpu*';
  $N/test_bench_cli --gtest_brief=1"; echo "tests rc=$?"; } >> $L 2>&1
{ timeout 150 $N/vbm-bench --solver smoke-open-4m --grow-steps 60 --steps 40 --json $OUT/bench-open-4m.json; echo "bench rc=$?"; } >> $L 2>&1
tr '\r' '\n' < $L | grep -v "solver step\|^\[vbm-fluid\] frame" | tail -70
