#!/bin/bash
# Issue 15, H200 run 9 (session 11): test_vbm_gpu of the working tree (octant taps and the run
# form on the device; run 8's copy ran past its 300 s limit while its octant test still compared
# every octant with a host resolve, since dropped from it), and vbm-check --gpu.
source docs/results/issue15/h200-setup.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
{ echo "== test_vbm_gpu"; timeout 500 $C/tests/test_vbm_gpu 2>&1 | grep -E "^\[ +(OK|FAILED|PASSED|SKIPPED) |^\[=+\]| Failure|Expected|Which is|actual" ; echo "rc=${PIPESTATUS[0]}"
  echo "== vbm-check --gpu"; $C/tests/vbm-check --gpu 2>&1 | tail -3; } > $OUT/tests.log 2>&1
grep -E "^==|PASSED|FAILED|tests? from|rc=|passed" $OUT/tests.log | tail -12
