#!/bin/bash
# Run 5 (session 4): run 4 again where Vulkan found no driver (the carried .gl now holds the
# loader's GLVND companions as the device README lists them), and the 300-step plume benchmark
# with the step medians by window (vbm-bench of 4ec1a72; the other binaries as in run 4).
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
C=$PWD/.carry/final; gunzip -f $C/*.gz; chmod +x $C/*
export LD_LIBRARY_PATH=$PWD/.carry/lib
icd=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json; ls -la $icd; [ -f $icd ] && export VK_DRIVER_FILES=$icd
export __EGL_VENDOR_LIBRARY_FILENAMES=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json
mkdir -p build/bin && ln -sf $C/vbm-fluid build/bin/vbm-fluid
$C/test_render --gtest_brief=1 --gtest_filter='Gpu*' > $OUT/tests-render.log 2>&1; tail -3 $OUT/tests-render.log
{ $C/vbm-fluid --headless --frames 30 --scene smoke-plume-4m --size 1280x720 --interop on; echo "rc=$?"
  $C/vbm-fluid --headless --frames 14 --resolver all --interop on; echo "rc=$?"; } > $OUT/fluid.log 2>&1
grep -E "render:|interop|step \||render \||frame \||Host copies|identical|rc=" $OUT/fluid.log | head -24
$C/vbm-bench --solver smoke-plume-4m --steps 300 2>/dev/null > $OUT/bench-4m-300.md
grep -E '\*\*step\*\*|^\| advection|pressure CG \||substeps|window|identical' $OUT/bench-4m-300.md
