#!/bin/bash
# Run 10 (session 3): r5 = commit 22fbe74; r10 = the working tree that became the next commit
# (transfer table loads of 8/16 bytes, alpha/beta once, two replays per CG iteration, fused
# sources/centres/buoyancy, CG start in one pass, negated divergence in its pass). In turns;
# then GPU tests, the renderer's shared path, and every resolver on the plume.
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
A=$PWD/.carry/r5; B=$PWD/.carry/r10; gunzip $A/*.gz $B/*.gz; chmod +x $A/vbm-bench $B/vbm-bench $B/vbm-fluid $B/test_*
export LD_LIBRARY_PATH=$PWD/.carry/lib
icd=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json; [ -f $icd ] && export VK_DRIVER_FILES=$icd
mkdir -p build/bin && ln -sf $B/vbm-fluid build/bin/vbm-fluid
b(){ name=$1; bin=$2; scene=$3; $bin/vbm-bench --solver $scene --steps 30 2>/dev/null > $OUT/$name.md
  echo "$name: $(grep -E '\*\*step\*\*|pressure CG \||iterations per step' $OUT/$name.md | tr '\n' ' ')"; }
for r in 1 2; do b r5-4m-$r $A smoke-plume-4m; b r10-4m-$r $B smoke-plume-4m; done
b r10-4m-tol1e-4 $B $A/plume4m-tol1e-4.scene
b r5-plume-1m $A smoke-plume; b r10-plume-1m $B smoke-plume
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
  $B/test_solver_resolvers --gtest_brief=1 --gtest_filter='Gpu*'
  $B/test_render --gtest_brief=1 --gtest_filter='Gpu*'; } > $OUT/tests.log 2>&1
grep -E "PASSED|FAILED" $OUT/tests.log
$B/vbm-fluid --headless --frames 30 --scene smoke-plume-4m --size 1280x720 --interop on > $OUT/fluid-4m.log 2>&1; echo "fluid rc=$?"
grep -E "interop|step \||frame \||Host copies" $OUT/fluid-4m.log | head
$B/vbm-fluid --headless --frames 14 --resolver all --interop on > $OUT/fluid-all.log 2>&1; echo "fluid all rc=$?"; tail -3 $OUT/fluid-all.log
