#!/bin/bash
# Run 7 (session 3): r5 = commit 22fbe74; r7 = + 8/16-byte table loads in the transfers, the
# finish kernel with four running sums, the last two multigrid levels in one launch. In turns.
A=$PWD/.carry/r5; B=$PWD/.carry/r7; gunzip $A/*.gz $B/*.gz; chmod +x $A/vbm-bench $B/vbm-bench $B/test_*
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
  $B/test_solver_resolvers --gtest_brief=1 --gtest_filter='Gpu*'; } > $OUT/tests.log 2>&1
grep -E "PASSED|FAILED" $OUT/tests.log
b(){ name=$1; bin=$2; scene=$3; $bin/vbm-bench --solver $scene --steps 30 2>/dev/null > $OUT/$name.md
  echo "$name: $(grep -E '\*\*step\*\*|pressure CG \||iterations per step' $OUT/$name.md | tr '\n' ' ')"; }
for r in 1 2; do b r5-4m-$r $A smoke-plume-4m; b r7-4m-$r $B smoke-plume-4m; done
b r7-4m-tol1e-4 $B $A/plume4m-tol1e-4.scene
b r7-plume-1m $B smoke-plume
timeout 100 ncu --clock-control none --metrics gpu__time_duration.sum --csv --launch-count 400 $B/vbm-bench --solver smoke-plume-4m --steps 5 > $OUT/ncu.csv 2>/dev/null; echo ncu rc $?
