#!/bin/bash
# Run 1 (session 3): trilinear transfer, programmatic dependent launch, coarsest sweeps; knobs by env.
C=$PWD/.carry/r1; gunzip $C/*.gz; chmod +x $C/vbm-bench $C/test_solver_resolvers
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
T="VBM_TRI=1 VBM_LS=1 VBM_PW=1.0"
{ echo "== TRI=0"; VBM_TRI=0 $C/test_solver_resolvers --gtest_brief=1 --gtest_filter='Gpu*'
  echo "== TRI=1"; env $T $C/test_solver_resolvers --gtest_brief=1 --gtest_filter='Gpu*'; } > $OUT/tests.log 2>&1
grep -E "PASSED|FAILED|==" $OUT/tests.log
b(){ name=$1; shift; env "$@" $C/vbm-bench --solver ${SCENE:-smoke-plume-4m} --steps 30 > $OUT/$name.md 2>&1
  echo "$name: $(grep -E '\*\*step\*\*|pressure CG \||iterations per step' $OUT/$name.md | tr '\n' ' ')"; }
b base-nopdl VBM_TRI=0 VBM_PDL=0
b base-pdl VBM_TRI=0 VBM_PDL=1
b tri-nopdl $T VBM_PDL=0
b tri-pdl $T VBM_PDL=1
b tri-pdl-cs40 $T VBM_PDL=1 VBM_CS=40
b tri-pdl-cs20 $T VBM_PDL=1 VBM_CS=20
SCENE=$C/plume4m-tol1e-4.scene b tri-pdl-tol4 $T VBM_PDL=1
SCENE=$C/plume4m-tol1e-4.scene b base-pdl-tol4 VBM_TRI=0 VBM_PDL=1
env $T VBM_PDL=1 timeout 100 ncu --clock-control none --metrics gpu__time_duration.sum --csv --launch-count 3000 $C/vbm-bench --solver smoke-plume-4m --steps 5 > $OUT/ncu-tri.csv 2>/dev/null; echo ncu rc $?
