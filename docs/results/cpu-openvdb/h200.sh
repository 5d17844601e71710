#!/bin/bash
# Issue 16, H200 run 1 (binaries built here from the tree of 2f14fd4; vbm-bench from a3013a6):
# the GPU tests and vbm-check --gpu after the host code moved to -march=x86-64-v3 and the CPU
# form of the block skeleton; a short GPU bench; vbm-bench --cpu on that machine's own cores.
gunzip -f .carry/lib/*.gz
source docs/results/restructure/h200-setup.sh
N=$C/new
lscpu | grep -E "Model name|^CPU\(s\)"; echo "avx2: $(grep -m1 -o -w avx2 /proc/cpuinfo)"
timeout 240 bash -c "$N/test_vbm_gpu --gtest_brief=1; $N/test_adapt_gpu --gtest_brief=1;
  $N/test_solver_resolvers --gtest_brief=1 --gtest_filter='Gpu*'; $N/vbm-check --gpu | tail -1" 2>&1 | grep -E "tests from|PASSED|FAILED|passed"
timeout 120 $N/vbm-bench --grid small --channels 1 --no-decode > $OUT/gpu-small.md 2>&1; echo "gpu bench rc=$?"; grep -E "identical" $OUT/gpu-small.md
timeout 200 $N/vbm-bench --cpu --grid small --channels 1,8 --json $OUT/cpu-small-h200host.json > $OUT/cpu-small-h200host.md 2>$OUT/cpu-small-h200host.err; echo "cpu bench rc=$?"
grep -E "^device|Ours|All" $OUT/cpu-small-h200host.md
