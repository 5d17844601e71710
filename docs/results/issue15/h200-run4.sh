#!/bin/bash
# Issue 15, H200 run 4: the GPU tests of T (.carry/tests), then the 1B- and 2B-voxel plumes
# (vbm-fluid --headless, no rendering, 5 and 4 steps, per-phase timings).
source docs/results/issue15/h200-setup.sh
X="timeout 150"
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
  for t in test_vbm_gpu test_solver_resolvers test_adapt_gpu test_render; do
    echo "== $t"; $X $C/tests/$t --gtest_brief=1 2>&1 | tail -25; done
  $C/tests/vbm-check --gpu; echo "vbm-check rc=$?"; } > $OUT/tests.log 2>&1
grep -E "^==|PASSED|FAILED|SKIPPED|rc=" $OUT/tests.log
for s in 1b:5 2b:4; do n=${s%:*} f=${s#*:}
  ( while sleep 2; do nvidia-smi --query-gpu=memory.used --format=csv,noheader,nounits; done ) > $OUT/mem-$n.txt &
  w=$!; /usr/bin/time -v timeout 280 build/bin/vbm-fluid --headless --render none --frames $f \
    --scene docs/results/issue15/smoke-plume-$n.scene --timings $OUT/timings-$n.csv > $OUT/fluid-$n.log 2>&1
  echo "$n rc=$? peak MiB $(sort -n $OUT/mem-$n.txt | tail -1)"; kill $w; tail -4 $OUT/fluid-$n.log; done
