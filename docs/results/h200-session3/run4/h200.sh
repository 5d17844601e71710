#!/bin/bash
# Run 4 (session 3): + direction update fused into A d, reductions finished by their last block,
# coarsest-level block sized to the level, advection weights back in local memory; coarsest
# sweeps by env (VBM_CS, VBM_CV; unset = the committed 80 and 500).
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
C=$PWD/.carry/r4; gunzip $C/*.gz; chmod +x $C/vbm-bench $C/vbm-fluid $C/test_*
export LD_LIBRARY_PATH=$PWD/.carry/lib
icd=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json; [ -f $icd ] && export VK_DRIVER_FILES=$icd
mkdir -p build/bin && ln -sf $C/vbm-fluid build/bin/vbm-fluid
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
  $C/test_solver_resolvers --gtest_brief=1 --gtest_filter='Gpu*'
  $C/test_render --gtest_brief=1 --gtest_filter='Gpu*'; } > $OUT/tests.log 2>&1
grep -E "PASSED|FAILED" $OUT/tests.log
b(){ name=$1; scene=$2; shift 2; env "$@" $C/vbm-bench --solver $scene --steps 30 2>/dev/null > $OUT/$name.md
  echo "$name: $(grep -E '\*\*step\*\*|pressure CG \||advection \||iterations per step' $OUT/$name.md | tr '\n' ' ')"; }
b bench-4m smoke-plume-4m
b bench-4m-cs40 smoke-plume-4m VBM_CS=40
b bench-4m-cs24 smoke-plume-4m VBM_CS=24
b bench-4m-cv200-cs40 smoke-plume-4m VBM_CV=200 VBM_CS=40
b bench-4m-again smoke-plume-4m
b bench-4m-tol1e-4 $C/plume4m-tol1e-4.scene
timeout 100 ncu --clock-control none --metrics gpu__time_duration.sum --csv --launch-count 2500 $C/vbm-bench --solver smoke-plume-4m --steps 5 > $OUT/ncu.csv 2>/dev/null; echo ncu rc $?
