#!/bin/bash
# Final run: GPU tests on HEAD's code (w8 = smoothing weight 0.8, as committed), the smoke step
# with weight 0.8 vs 0.9 in turns, and the renderer's paths with GPU render times.
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
C=$PWD/.carry; gunzip $C/w8/*.gz $C/w9/*.gz; chmod +x $C/w8/* $C/w9/*
export LD_LIBRARY_PATH=$C/lib
icd=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json; [ -f $icd ] && export VK_DRIVER_FILES=$icd
mkdir -p /work/wt/build/bin && ln -sf $C/w8/vbm-fluid /work/wt/build/bin/vbm-fluid
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
  $C/w8/test_vbm_gpu --gtest_brief=1; $C/w8/test_solver_resolvers --gtest_brief=1 --gtest_filter='Gpu*'
  $C/w8/test_render --gtest_brief=1 --gtest_filter='Gpu*'; $C/w8/vbm-check --gpu | tail -2
  echo "== weight 0.9 build: GpuSolver"; $C/w9/test_solver_resolvers --gtest_brief=1 --gtest_filter='Gpu*'; } > $OUT/tests.log 2>&1
grep -E "PASSED|FAILED|passed|failed|==" $OUT/tests.log
for r in 1 2; do for w in w8 w9; do
  $C/$w/vbm-bench --solver smoke-plume-4m --steps 30 > $OUT/bench-$w-$r.md 2>/dev/null
  echo "$w run $r: $(grep -E '\*\*step\*\*|iterations per step' $OUT/bench-$w-$r.md | tr '\n' ' ')"
done; done
$C/w8/vbm-fluid --headless --frames 30 --scene smoke-plume-4m --size 1280x720 --interop on > $OUT/fluid-4m.log 2>&1; echo "fluid rc=$?"
grep -E "interop|render|step \||frame \||Host copies" $OUT/fluid-4m.log
