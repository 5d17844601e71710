#!/bin/bash
# Issue 15, H200 run 8 (session 11): octant taps in the advection. O = vbm-fluid at cc2e6f3
# (.carry/old), N = the working tree (.carry/new, .carry/tests).
#  - GPU tests of N: test_vbm_gpu (octant taps and the run form on the device), test_solver_resolvers, test_adapt_gpu;
#  - the 4.2M plume, 300 frames headless without rendering, O N O N; per-phase medians over
#    frames 101-300 (window-medians.py); the fields after 300 frames hashed (--export);
#  - scripts/fields-hashes.sh of O and N (every scene, both widths, every resolver in turn), diffed.
source docs/results/issue15/h200-setup.sh
X="timeout 300"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
{ for t in test_vbm_gpu test_solver_resolvers test_adapt_gpu; do echo "== $t"; $X $C/tests/$t --gtest_brief=1 2>&1 | tail -12; done
} > $OUT/tests.log 2>&1
grep -E "^==|PASSED|FAILED|SKIPPED|tests? from" $OUT/tests.log
for i in 1 2; do for v in old new; do
  $X $C/$v/vbm-fluid --headless --render none --scene smoke-plume-4m --frames 300 --timings $OUT/$v-$i.csv \
    --export /tmp/$v-$i.nvdb > /tmp/$v-$i.txt 2>&1; echo "$v $i rc=$? fields $(sha256sum /tmp/$v-$i.nvdb | cut -c1-16)"; done; done
python3 docs/results/issue15/window-medians.py 101 300 $OUT/old-1.csv $OUT/new-1.csv $OUT/old-2.csv $OUT/new-2.csv | tee $OUT/windows.md
for v in old new; do ALL_RESOLVERS=1 $X scripts/fields-hashes.sh $C/$v/vbm-fluid cuda 12 3 > $OUT/hashes-$v.txt 2>&1; echo "hashes $v rc=$?"; done
diff $OUT/hashes-old.txt $OUT/hashes-new.txt && echo "fields hashes: old and new identical ($(wc -l < $OUT/hashes-new.txt) lines)"
gzip $OUT/*.csv
