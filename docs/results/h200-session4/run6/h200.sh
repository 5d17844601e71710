#!/bin/bash
# Run 6 (session 4): commit e815f28 (NANOVDB_USE_INTRINSICS, slice-word streamed cached box resolver,
# computeBoxStencilCached per tap, Advect<5>), binaries from build/ as scripts/test.sh built them. GPU tests, the plume benchmark
# in steady state (300 steps) and over the first 30 steps, the app on the shared CUDA-Vulkan
# path, every resolver in the app, then the resolver comparison (vbm-bench's default run).
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
C=$PWD/.carry/final; gunzip -f $C/*.gz; chmod +x $C/*
export LD_LIBRARY_PATH=$PWD/.carry/lib __EGL_VENDOR_LIBRARY_FILENAMES=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json
icd=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json; [ -f $icd ] && export VK_DRIVER_FILES=$icd
mkdir -p build/bin && ln -sf $C/vbm-fluid build/bin/vbm-fluid
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
  $C/test_solver_resolvers --gtest_brief=1 --gtest_filter='Gpu*'
  $C/test_render --gtest_brief=1 --gtest_filter='Gpu*'
  $C/test_vbm_gpu --gtest_brief=1
  $C/vbm-check --gpu; echo "vbm-check rc=$?"; } > $OUT/tests.log 2>&1
grep -E "PASSED|FAILED|passed|failed|rc=" $OUT/tests.log
b(){ name=$1; shift; $C/vbm-bench "$@" 2>/dev/null > $OUT/$name.md
  echo "$name: $(grep -E '\*\*step\*\*|^\| advection|pressure CG \||substeps|window|iterations per step|identical' $OUT/$name.md | tr '\n' ' ')"; }
b bench-4m-300 --solver smoke-plume-4m --steps 300
b bench-4m-30 --solver smoke-plume-4m --steps 30
{ $C/vbm-fluid --headless --frames 30 --scene smoke-plume-4m --size 1280x720 --interop on; echo "rc=$?"
  $C/vbm-fluid --headless --frames 14 --resolver all --interop on; echo "rc=$?"; } > $OUT/fluid.log 2>&1
grep -E "interop|step \||frame \||Host copies|identical|rc=" $OUT/fluid.log | head -20
timeout 400 $C/vbm-bench --json $OUT/bench-h200.json > $OUT/bench-h200.md 2>/tmp/rb.err; echo "resolver bench rc=$?"
grep -E "identical|^\| (small|thin)" $OUT/bench-h200.md | head -20
