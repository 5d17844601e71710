#!/bin/bash
# Issue 15, H200 run 30 (session 18): the voxel tap table (scene tap_table on, --tap-table on:
# the fine level's cross taps stored once, 24 B per voxel, and read by every Laplacian-type pass;
# solver/kernels/StoredTaps.h). One binary: B = the 4.2M plume as shipped, T = --tap-table on,
# W = --max-cfl 7, WT = both. T must hash as B and WT as W (run 28: B e70b80586edb6032, W 47353ad42fdc141d).
# Part a: B T W WT twice (medians over frames 101-300); test_tap_table (its GPU test).
# Part b: the 1B plume, default then --tap-table on (4 steps, peak memory); memcheck with the
# table; test_solver_resolvers.
source docs/results/issue15/h200-setup.sh
X="timeout 280"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
R=/tmp/r30; mkdir -p $R
part=${1:-a}
run() { # NAME ARGS...: the 4.2M plume, 300 frames, timings and fields
  local name=$1; shift
  $X $C/new/vbm-fluid --headless --render none --scene smoke-plume-4m --frames 300 --timings $R/$name.csv \
    --export /tmp/$name.nvdb "$@" > $R/$name.txt 2>&1
  echo "$name rc=$? fields $(sha256sum /tmp/$name.nvdb | cut -c1-16) $(grep -E 'memory:' $R/$name.txt)"
}
if [ "$part" = a ]; then
for i in 1 2; do
  run box-$i; run table-$i --tap-table on; run wide-$i --max-cfl 7; run widetable-$i --max-cfl 7 --tap-table on; done
python3 docs/results/issue15/window-medians.py 101 300 $R/box-1.csv $R/table-1.csv $R/wide-1.csv $R/widetable-1.csv \
  $R/box-2.csv $R/table-2.csv $R/wide-2.csv $R/widetable-2.csv | sed "s|$R/||g" | tee $R/windows.md
{ echo "== test_tap_table"; $X $C/tests/test_tap_table --gtest_brief=1 2>&1 | tail -30; } > $R/tests-a.log 2>&1
grep -E "^==|PASSED|FAILED|SKIPPED" $R/tests-a.log
gzip $R/*.csv; tar -C /tmp -czf $OUT/run30a.tgz r30
else
for t in "" "--tap-table on"; do n=plume1b${t:+-table}
  ( while sleep 1; do nvidia-smi --query-gpu=memory.used --format=csv,noheader,nounits; done ) > $R/mem-$n.txt & w=$!
  $X $C/new/vbm-fluid --headless --render none --frames 4 --scene docs/results/issue15/smoke-plume-1b.scene $t \
    --timings $R/timings-$n.csv > $R/fluid-$n.log 2>&1
  echo "$n rc=$? peak MiB $(sort -n $R/mem-$n.txt | tail -1)"; kill $w
  grep -E "memory:|taps:|frame .*/4|step \||pressure CG \||advection \|" $R/fluid-$n.log; done
for s in smoke-plume smoke-open; do
  $X compute-sanitizer --tool memcheck --error-exitcode 3 $C/new/vbm-fluid --headless --render none --scene $s \
    --tap-table on --frames 4 > $R/memcheck-$s.txt 2>&1
  echo "memcheck table $s rc=$? $(grep -E 'ERROR SUMMARY' $R/memcheck-$s.txt)"; done
{ echo "== test_solver_resolvers"; $X $C/tests/test_solver_resolvers --gtest_brief=1 2>&1 | tail -30; } > $R/tests-b.log 2>&1
grep -E "^==|PASSED|FAILED" $R/tests-b.log
tar -C /tmp -czf $OUT/run30b.tgz r30
fi
