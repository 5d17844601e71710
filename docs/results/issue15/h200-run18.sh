#!/bin/bash
# Issue 15, H200 run 18 (session 14): target 5 as run 17 (smoke's workspace 7 -> 5 arrays), but
# with CG's two directions kept (they ping-pong as before) and the coarse levels' arrays in the
# dead one, where run 17 stored the direction in place in UpdateSolution (CG +2.2%). O =
# vbm-fluid at 0fd500d (main's GPU code before session 14), N = the working tree. Part a only
# (as run 17's): the 4.2M plume O N O N, fields-hashes.sh of O and N, the GPU tests and memcheck of N.
source docs/results/issue15/h200-setup.sh
X="timeout 200"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
R=/tmp/r18; mkdir -p $R
if [ "${1:-a}" = a ]; then
for i in 1 2; do for v in old new; do
  $X $C/$v/vbm-fluid --headless --render none --scene smoke-plume-4m --frames 300 --timings $R/$v-$i.csv \
    --export /tmp/$v-$i.nvdb > $R/$v-$i.txt 2>&1; echo "$v $i rc=$? fields $(sha256sum /tmp/$v-$i.nvdb | cut -c1-16)"; done; done
grep -h "memory:" $R/old-1.txt $R/new-1.txt
python3 docs/results/issue15/window-medians.py 101 300 $R/old-1.csv $R/new-1.csv $R/old-2.csv $R/new-2.csv | sed "s|$R/||g" | tee $R/windows.md
for v in old new; do ALL_RESOLVERS=1 $X scripts/fields-hashes.sh $C/$v/vbm-fluid cuda 12 3 > $R/hashes-$v.txt 2>&1; echo "hashes $v rc=$?"; done
diff $R/hashes-old.txt $R/hashes-new.txt && echo "fields hashes: old and new identical ($(wc -l < $R/hashes-new.txt) lines)"
{ for t in test_solver_resolvers test_adapt_gpu; do echo "== $t"; $X $C/tests/$t --gtest_brief=1 2>&1 | tail -25; done; } > $R/tests.log 2>&1
grep -E "^==|PASSED|FAILED" $R/tests.log
for s in smoke-plume fire-small; do
  $X compute-sanitizer --tool memcheck --error-exitcode 3 $C/new/vbm-fluid --headless --render none --scene $s --frames 4 > $R/memcheck-$s.txt 2>&1
  echo "memcheck $s rc=$? $(grep -E 'ERROR SUMMARY' $R/memcheck-$s.txt)"; done
gzip $R/*.csv; tar -C /tmp -czf $OUT/run18a.tgz r18
else
for v in old new; do
  ( while sleep 1; do nvidia-smi --query-gpu=memory.used --format=csv,noheader,nounits; done ) > $R/mem-1b-$v.txt &
  w=$!; /usr/bin/time -v $X $C/$v/vbm-fluid --headless --render none --frames 4 \
    --scene docs/results/issue15/smoke-plume-1b.scene --timings $R/timings-1b-$v.csv > $R/fluid-1b-$v.log 2>&1
  echo "1b $v rc=$? peak MiB $(sort -n $R/mem-1b-$v.txt | tail -1)"; kill $w; grep -E "memory:|step \||Elapsed" $R/fluid-1b-$v.log; done
( while sleep 1; do nvidia-smi --query-gpu=memory.used --format=csv,noheader,nounits; done ) > $R/mem-2b-new.txt &
w=$!; /usr/bin/time -v timeout 300 $C/new/vbm-fluid --headless --render none --frames 4 \
  --scene docs/results/issue15/smoke-plume-2b.scene --timings $R/timings-2b-new.csv > $R/fluid-2b-new.log 2>&1
echo "2b new rc=$? peak MiB $(sort -n $R/mem-2b-new.txt | tail -1)"; kill $w; grep -E "memory:|step \||Elapsed" $R/fluid-2b-new.log
tar -C /tmp -czf $OUT/run18b.tgz r18
fi
