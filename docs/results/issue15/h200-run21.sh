#!/bin/bash
# Issue 15, H200 run 21 (session 14): what is kept of run 20. O = vbm-fluid at 0f741fd (main),
# N = the working tree: trilinear::Neighbourhood's links from word operations (boxesFull), and
# TrilinearRestrict's element kernel under launch bounds (6 blocks of 256, 40 registers; the
# prolongation left without: run 20). The 4.2M plume O N O N (medians over frames 101-300,
# fields hashed after 300); fields-hashes.sh of N against run 18's and run 19's (the same O
# binary), every resolver; the GPU tests and memcheck of N.
source docs/results/issue15/h200-setup.sh
X="timeout 200"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
R=/tmp/r21; mkdir -p $R
for i in 1 2; do for v in old new; do
  $X $C/$v/vbm-fluid --headless --render none --scene smoke-plume-4m --frames 300 --timings $R/$v-$i.csv \
    --export /tmp/$v-$i.nvdb > $R/$v-$i.txt 2>&1; echo "$v $i rc=$? fields $(sha256sum /tmp/$v-$i.nvdb | cut -c1-16)"; done; done
python3 docs/results/issue15/window-medians.py 101 300 $R/old-1.csv $R/new-1.csv $R/old-2.csv $R/new-2.csv | sed "s|$R/||g" | tee $R/windows.md
ALL_RESOLVERS=1 $X scripts/fields-hashes.sh $C/new/vbm-fluid cuda 12 3 > $R/hashes-new.txt 2>&1; echo "hashes rc=$?"
diff docs/results/issue15/run18/hashes-new.txt $R/hashes-new.txt && echo "fields hashes: identical to run 18's O"
SCENES="fire-small fire smoke-open" ALL_RESOLVERS=1 $X scripts/fields-hashes.sh $C/new/vbm-fluid cuda 12 3 > $R/hashes-new-fire-open.txt 2>&1; echo "hashes rc=$?"
diff docs/results/issue15/run19/hashes-old.txt $R/hashes-new-fire-open.txt && echo "fields hashes (fire, open): identical to run 19's O"
{ for t in test_solver_resolvers test_adapt_gpu; do echo "== $t"; $X $C/tests/$t --gtest_brief=1 2>&1 | tail -25; done; } > $R/tests.log 2>&1
grep -E "^==|PASSED|FAILED" $R/tests.log
for s in smoke-plume smoke-open; do
  $X compute-sanitizer --tool memcheck --error-exitcode 3 $C/new/vbm-fluid --headless --render none --scene $s --frames 4 > $R/memcheck-$s.txt 2>&1
  echo "memcheck $s rc=$? $(grep -E 'ERROR SUMMARY' $R/memcheck-$s.txt)"; done
gzip $R/*.csv; tar -C /tmp -czf $OUT/run21.tgz r21
