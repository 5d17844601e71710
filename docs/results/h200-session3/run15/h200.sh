#!/bin/bash
# Run 15 (session 3): A = commit 4b9c039 (r11 binaries); W = + consumers that declare the taps
# they want (advection's trilinear gather: its nonzero weights; cross bodies from box resolvers:
# the 7 cross taps), so the streamed box resolvers resolve no others. Benches in turns, then GPU
# tests on W.
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
A=$PWD/.carry/r11; W=$PWD/.carry/w; gunzip $A/*.gz $W/*.gz 2>/dev/null; chmod +x $A/* $W/*
export LD_LIBRARY_PATH=$PWD/.carry/lib
icd=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json; [ -f $icd ] && export VK_DRIVER_FILES=$icd
mkdir -p build/bin && ln -sf $W/vbm-fluid build/bin/vbm-fluid
b(){ name=$1; bin=$2; n=$3; $bin/vbm-bench --solver smoke-plume-4m --steps $n 2>/dev/null > $OUT/$name.md
  echo "$name: $(grep -E '\*\*step\*\*|advection \||pressure CG \||iterations per step' $OUT/$name.md | tr '\n' ' ')"; }
b A-100 $A 100; b W-100 $W 100; b A-30 $A 30; b W-30 $W 30; b W-300 $W 300
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
  $W/test_vbm_gpu --gtest_brief=1; $W/test_solver_resolvers --gtest_brief=1 --gtest_filter='Gpu*'
  $W/test_render --gtest_brief=1 --gtest_filter='Gpu*'; $W/vbm-check --gpu | tail -2
  $W/vbm-fluid --headless --frames 14 --resolver all --interop on | tail -3; } > $OUT/tests.log 2>&1
grep -E "PASSED|FAILED|passed|failed|identical" $OUT/tests.log
