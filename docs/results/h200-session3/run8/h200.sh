#!/bin/bash
# Run 8 (session 3): r5 = commit 22fbe74; r8 = + 8/16-byte table loads in the transfers, alpha and
# beta divided once per iteration; VBM_RB = the reductions' block count (1024 as committed). In turns.
A=$PWD/.carry/r5; B=$PWD/.carry/r8; gunzip $A/*.gz $B/*.gz; chmod +x $A/vbm-bench $B/vbm-bench $B/test_*
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
  $B/test_solver_resolvers --gtest_brief=1 --gtest_filter='Gpu*'; } > $OUT/tests.log 2>&1
grep -E "PASSED|FAILED" $OUT/tests.log
b(){ name=$1; bin=$2; scene=$3; shift 3; env "$@" $bin/vbm-bench --solver $scene --steps 30 2>/dev/null > $OUT/$name.md
  echo "$name: $(grep -E '\*\*step\*\*|pressure CG \||iterations per step' $OUT/$name.md | tr '\n' ' ')"; }
for r in 1 2; do b r5-4m-$r $A smoke-plume-4m; b r8-4m-$r $B smoke-plume-4m; b r8-rb4096-4m-$r $B smoke-plume-4m VBM_RB=4096; b r8-rb2048-4m-$r $B smoke-plume-4m VBM_RB=2048; done
VBM_RB=4096 timeout 100 ncu --clock-control none --metrics gpu__time_duration.sum --csv --launch-count 200 $B/vbm-bench --solver smoke-plume-4m --steps 5 > $OUT/ncu.csv 2>/dev/null; echo ncu rc $?
