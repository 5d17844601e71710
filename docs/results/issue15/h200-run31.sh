#!/bin/bash
# Issue 15, H200 run 31 (session 18): the multigrid's last levels in one launch (kernels/CoarseTail.h:
# the restriction into the first level at or below level 2 whose levels fit in 160 KiB, their V-cycle
# in the block's shared memory, the prolongation out), bitwise the same as one launch per pass.
# O = vbm-fluid of run 30 (the voxel tap table), N = the working tree with the tail. Each on the
# 4.2M plume as shipped (B: must hash e70b80586edb6032) and with --max-cfl 7 --tap-table on
# (WT: 47353ad42fdc141d), O-B N-B O-WT N-WT twice, medians over frames 101-300; then the GPU
# tests and compute-sanitizer (memcheck and racecheck) on N.
source docs/results/issue15/h200-setup.sh
X="timeout 280"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
R=/tmp/r31; mkdir -p $R
run() { # NAME BINARY ARGS...: the 4.2M plume, 300 frames, timings and fields
  local name=$1 bin=$2; shift 2
  $X $bin --headless --render none --scene smoke-plume-4m --frames 300 --timings $R/$name.csv \
    --export /tmp/$name.nvdb "$@" > $R/$name.txt 2>&1
  echo "$name rc=$? fields $(sha256sum /tmp/$name.nvdb | cut -c1-16)"
}
for i in 1 2; do
  run O-B-$i $C/old/vbm-fluid; run N-B-$i $C/new/vbm-fluid
  run O-WT-$i $C/old/vbm-fluid --max-cfl 7 --tap-table on; run N-WT-$i $C/new/vbm-fluid --max-cfl 7 --tap-table on; done
python3 docs/results/issue15/window-medians.py 101 300 $R/O-B-1.csv $R/N-B-1.csv $R/O-WT-1.csv $R/N-WT-1.csv \
  $R/O-B-2.csv $R/N-B-2.csv $R/O-WT-2.csv $R/N-WT-2.csv | sed "s|$R/||g" | tee $R/windows.md
{ for t in test_coarse_tail test_tap_table test_solver_resolvers; do echo "== $t"; $X $C/tests/$t --gtest_brief=1 2>&1 | tail -30; done; } > $R/tests.log 2>&1
grep -E "^==|PASSED|FAILED" $R/tests.log
for s in smoke-plume smoke-open; do
  $X compute-sanitizer --tool memcheck --error-exitcode 3 $C/new/vbm-fluid --headless --render none --scene $s \
    --frames 4 > $R/memcheck-$s.txt 2>&1
  echo "memcheck $s rc=$? $(grep -E 'ERROR SUMMARY' $R/memcheck-$s.txt)"; done
$X compute-sanitizer --tool racecheck --error-exitcode 3 $C/new/vbm-fluid --headless --render none --scene smoke-plume \
  --frames 2 > $R/racecheck-smoke-plume.txt 2>&1
echo "racecheck smoke-plume rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $R/racecheck-smoke-plume.txt)"
gzip $R/*.csv; tar -C /tmp -czf $OUT/run31.tgz r31
