#!/bin/bash
# Issue 15, H200 run 10 (session 12): the code as committed after session 11's H200 runs (force-
# inlined advection bodies, host/device split of the octant loops). O = vbm-fluid at cc2e6f3
# (.carry/old), N = the working tree (.carry/new, .carry/tests). Part "tests": test_vbm_gpu,
# test_solver_resolvers, test_adapt_gpu, vbm-check --gpu. Part "plume": the 4.2M plume, 300
# frames, O N O N (medians over frames 101-300), fields hashed after 300 frames, fields-hashes.sh
# of O and N diffed, and compute-sanitizer memcheck of N over 3 frames of the plume.
source docs/results/issue15/h200-setup.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
if [ "$1" = tests ]; then
  { for t in test_vbm_gpu test_solver_resolvers test_adapt_gpu; do echo "== $t"; timeout 400 $C/tests/$t 2>&1 |
      grep -E "^\[ +(FAILED|PASSED|SKIPPED) |^\[=+\]| Failure|Expected|Which is"; echo "rc=${PIPESTATUS[0]}"; done
    echo "== vbm-check --gpu"; $C/tests/vbm-check --gpu 2>&1 | tail -1; } > $OUT/tests.log 2>&1
  cat $OUT/tests.log
else
  X="timeout 200"
  for i in 1 2; do for v in old new; do
    $X $C/$v/vbm-fluid --headless --render none --scene smoke-plume-4m --frames 300 --timings $OUT/$v-$i.csv \
      --export /tmp/$v-$i.nvdb > /tmp/$v-$i.txt 2>&1; echo "$v $i rc=$? fields $(sha256sum /tmp/$v-$i.nvdb | cut -c1-16)"; done; done
  python3 docs/results/issue15/window-medians.py 101 300 $OUT/old-1.csv $OUT/new-1.csv $OUT/old-2.csv $OUT/new-2.csv | tee $OUT/windows.md
  for v in old new; do ALL_RESOLVERS=1 $X scripts/fields-hashes.sh $C/$v/vbm-fluid cuda 12 3 > $OUT/hashes-$v.txt 2>&1; echo "hashes $v rc=$?"; done
  diff $OUT/hashes-old.txt $OUT/hashes-new.txt && echo "fields hashes: old and new identical ($(wc -l < $OUT/hashes-new.txt) lines)"
  CS=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer | head -1); $X $CS --tool memcheck --print-limit 5 $C/new/vbm-fluid --headless --render none --scene smoke-plume --frames 3 2>&1 | tail -3 | tee $OUT/memcheck.txt
  gzip $OUT/*.csv
fi
