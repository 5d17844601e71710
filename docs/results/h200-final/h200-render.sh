#!/bin/bash
# Second run: the renderer's GPU test and the 4.2M plume with the shared path, at 9f5c7f7's code (w9).
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
C=$PWD/.carry; gunzip $C/w8/*.gz $C/w9/*.gz; chmod +x $C/w8/* $C/w9/*
export LD_LIBRARY_PATH=$C/lib
icd=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json; [ -f $icd ] && export VK_DRIVER_FILES=$icd
mkdir -p /work/wt/build/bin && ln -sf $C/w9/vbm-fluid /work/wt/build/bin/vbm-fluid
$C/w8/test_render --gtest_filter='Gpu*' > $OUT/render-test.log 2>&1; tail -4 $OUT/render-test.log
F="$C/w9/vbm-fluid --headless --frames 30 --scene smoke-plume-4m --size 1280x720"
$F --interop on --screenshot $OUT/plume4m-shared.png > $OUT/fluid-4m-shared.log 2>&1; echo "shared rc=$?"
$F --interop off --screenshot $OUT/plume4m-staged.png > $OUT/fluid-4m-staged.log 2>&1; echo "staged rc=$?"
cmp $OUT/plume4m-shared.png $OUT/plume4m-staged.png && echo "4m shared.png == staged.png"
grep -E "interop|\| render|step \||frame \||Host copies" $OUT/fluid-4m-*.log
$C/w9/vbm-bench --solver smoke-plume --steps 30 > $OUT/bench-plume-1m.md 2>/dev/null
grep -E '\*\*step\*\*|iterations per step' $OUT/bench-plume-1m.md
