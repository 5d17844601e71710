#!/bin/bash
# Run 2 (session 3): trilinear with the box rule; the coarsest level's size and sweeps; knobs by env.
C=$PWD/.carry/r1; gunzip $C/*.gz; chmod +x $C/vbm-bench $C/test_solver_resolvers
T="VBM_TRI=1 VBM_LS=1 VBM_PW=1.0 VBM_PDL=1"
{ echo "== TRI=1 box"; env $T $C/test_solver_resolvers --gtest_brief=1 --gtest_filter='Gpu*'; } > $OUT/tests.log 2>&1
grep -E "PASSED|FAILED|==" $OUT/tests.log
b(){ name=$1; shift; env "$@" $C/vbm-bench --solver ${SCENE:-smoke-plume-4m} --steps 30 > $OUT/$name.txt 2>&1
  echo "$name: $(grep -E '\*\*step\*\*|pressure CG \||iterations per step' $OUT/$name.txt | tr '\n' ' ')"; }
b tri $T
b tri-cv500 $T VBM_CV=500
b tri-cv200 $T VBM_CV=200
b tri-cv500-cs160 $T VBM_CV=500 VBM_CS=160
b tri-cv4000 $T VBM_CV=4000
SCENE=$C/plume4m-tol1e-4.scene b tri-tol4 $T
env $T timeout 100 ncu --clock-control none --metrics gpu__time_duration.sum --csv --launch-count 3000 $C/vbm-bench --solver smoke-plume-4m --steps 5 > $OUT/ncu-tri.csv 2>/dev/null; echo ncu rc $?
