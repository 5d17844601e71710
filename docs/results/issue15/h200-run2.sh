#!/bin/bash
# Issue 15, H200 run 2: the GPU tests of the code under test (.carry/tests).
source docs/results/issue15/h200-setup.sh
T="timeout 200"
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
  for t in test_vbm_gpu test_solver_resolvers test_adapt_gpu test_render test_render_look; do
    [ -f $C/tests/$t ] || continue; echo "== $t"; $T $C/tests/$t --gtest_brief=1 2>&1 | tail -25; done
  $C/tests/vbm-check --gpu; echo "vbm-check rc=$?"; } > $OUT/tests.log 2>&1
grep -E "^==|PASSED|FAILED|SKIPPED|rc=" $OUT/tests.log
