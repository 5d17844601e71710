#!/bin/bash
# Issue 15, H200 run 24 (session 15, after review): firstSweep is the one expression of a level's
# first sweep (FineFirstSweep replaces JacobiApply in the V-cycle; FirstSweep, CoarsestJacobi,
# UpdateSolution and the prolongation call it). N = the working tree committed with this script.
# Fields of the 4.2M plume after 300 frames, fields-hashes.sh (every resolver) against runs 18
# and 19, the GPU tests and memcheck.
source docs/results/issue15/h200-setup.sh
X="timeout 200"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
R=/tmp/r24; mkdir -p $R
$X $C/new/vbm-fluid --headless --render none --scene smoke-plume-4m --frames 300 --timings $R/new.csv \
  --export /tmp/new.nvdb > $R/new.txt 2>&1; echo "new rc=$? fields $(sha256sum /tmp/new.nvdb | cut -c1-16)"
ALL_RESOLVERS=1 $X scripts/fields-hashes.sh $C/new/vbm-fluid cuda 12 3 > $R/hashes-new.txt 2>&1; echo "hashes rc=$?"
diff docs/results/issue15/run18/hashes-new.txt $R/hashes-new.txt && echo "fields hashes: identical to run 18's O"
SCENES="fire-small fire smoke-open" ALL_RESOLVERS=1 $X scripts/fields-hashes.sh $C/new/vbm-fluid cuda 12 3 > $R/hashes-new-fire-open.txt 2>&1; echo "hashes rc=$?"
diff docs/results/issue15/run19/hashes-old.txt $R/hashes-new-fire-open.txt && echo "fields hashes (fire, open): identical to run 19's O"
{ for t in test_solver_resolvers test_adapt_gpu; do echo "== $t"; $X $C/tests/$t --gtest_brief=1 2>&1 | tail -25; done; } > $R/tests.log 2>&1
grep -E "^==|PASSED|FAILED" $R/tests.log
for s in smoke-plume smoke-open; do
  $X compute-sanitizer --tool memcheck --error-exitcode 3 $C/new/vbm-fluid --headless --render none --scene $s --frames 4 > $R/memcheck-$s.txt 2>&1
  echo "memcheck $s rc=$? $(grep -E 'ERROR SUMMARY' $R/memcheck-$s.txt)"; done
gzip $R/*.csv; tar -C /tmp -czf $OUT/run24.tgz r24
