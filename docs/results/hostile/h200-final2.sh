#!/bin/bash
# Issue 17, H200 run 3 (binaries at d3d25b2): the GPU tests after checkVbmGrid's tile-index check.
source docs/results/restructure/h200-setup.sh
N=$C/new
timeout 200 bash -c "$N/test_vbm_gpu --gtest_brief=1; $N/test_adapt_gpu --gtest_brief=1;
  $N/test_solver_resolvers --gtest_brief=1 --gtest_filter='Gpu*'; $N/vbm-check --gpu | tail -1" 2>&1 | grep -E "tests from|PASSED|FAILED|passed"
