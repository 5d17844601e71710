#!/bin/bash
# Run 8 (session 4): commit d1bca46 (sliceBase shared by the cached resolvers; the bench derives
# ms per substep from its phase times). GPU tests, the plume at 300 steps, every resolver in the app.
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
$C/vbm-bench --solver smoke-plume-4m 2>/dev/null > $OUT/bench-4m-300.md; echo "bench rc=$?"
grep -E '\*\*step\*\*|pressure CG \||window|substeps|identical' $OUT/bench-4m-300.md
$C/vbm-fluid --headless --frames 14 --resolver all --interop on > $OUT/fluid-all.log 2>&1; echo "fluid rc=$?"
grep -E "identical|Host copies" $OUT/fluid-all.log
