#!/bin/bash
# Run 3 (session 3): the committed multigrid (trilinear transfer, coarsest <= 500 voxels) with
# programmatic dependent launch: GPU tests, the 4.2M plume bench twice, at CG tolerance 1e-4,
# the 1.1M plume, and the app headless on the shared CUDA-Vulkan path.
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
C=$PWD/.carry/r3; gunzip $C/*.gz; chmod +x $C/vbm-bench $C/vbm-fluid $C/test_*
export LD_LIBRARY_PATH=$PWD/.carry/lib
icd=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json; [ -f $icd ] && export VK_DRIVER_FILES=$icd
mkdir -p build/bin && ln -sf $C/vbm-fluid build/bin/vbm-fluid
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
  $C/test_solver_resolvers --gtest_brief=1 --gtest_filter='Gpu*'
  $C/test_render --gtest_brief=1 --gtest_filter='Gpu*'; } > $OUT/tests.log 2>&1
grep -E "PASSED|FAILED" $OUT/tests.log
b(){ name=$1; scene=$2; $C/vbm-bench --solver $scene --steps 30 2>/dev/null > $OUT/$name.md
  echo "$name: $(grep -E '\*\*step\*\*|iterations per step' $OUT/$name.md | tr '\n' ' ')"; }
b bench-4m-1 smoke-plume-4m
b bench-4m-2 smoke-plume-4m
b bench-4m-tol1e-4 $C/plume4m-tol1e-4.scene
b bench-plume-1m smoke-plume
$C/vbm-fluid --headless --frames 30 --scene smoke-plume-4m --size 1280x720 --interop on > $OUT/fluid-4m.log 2>&1; echo "fluid rc=$?"
grep -E "interop|render|step \||frame \||host" $OUT/fluid-4m.log | head
