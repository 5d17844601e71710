#!/bin/bash
# Issue 17 on the H200: compute-sanitizer's memcheck, racecheck and synccheck over the GPU tests
# (small grids: a sanitizer runs kernels 10-100x slower), over a headless smoke-open run with its
# rebuilds, and the CUDA fields' hashes of every fixed-topology scene against d19f962's (the
# NaN-aware max reduction and the finite check must change no result). Every command has a time
# limit; the log is one file. Binaries at 44b70f8.
source docs/results/restructure/h200-setup.sh
N=$C/new; L=$OUT/s.log
{ pwd; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u; compute-sanitizer --version | tail -1; } > $L
small='*RandomSparse16*:*SingleLeaf*:*NodeBoundaries*'
for tool in memcheck racecheck synccheck; do
  { echo "== $tool test_vbm_gpu ($small)"; timeout 150 compute-sanitizer --tool $tool --error-exitcode 9 $N/test_vbm_gpu --gtest_brief=1 --gtest_filter="$small" 2>&1 | tail -4; echo "rc=${PIPESTATUS[0]}"; } >> $L
  { echo "== $tool test_adapt_gpu (dilation, topology)"; timeout 120 compute-sanitizer --tool $tool --error-exitcode 9 $N/test_adapt_gpu --gtest_brief=1 --gtest_filter='*Dilation*:*Topology*' 2>&1 | tail -4; echo "rc=${PIPESTATUS[0]}"; } >> $L
  { echo "== $tool vbm-fluid smoke-open 12 frames"; timeout 120 compute-sanitizer --tool $tool --error-exitcode 9 $N/vbm-fluid --headless --scene smoke-open --frames 12 --render none 2>&1 | grep -E "ERROR SUMMARY|vbm-fluid:|Frames" | tail -3; echo "rc=${PIPESTATUS[0]}"; } >> $L
done
{ echo "== memcheck GpuSolver"; timeout 150 compute-sanitizer --tool memcheck --error-exitcode 9 $N/test_solver_resolvers --gtest_brief=1 --gtest_filter='GpuSolver.*' 2>&1 | tail -4; echo "rc=${PIPESTATUS[0]}"; } >> $L
{ echo "== GPU tests, no sanitizer"; timeout 120 bash -c "$N/test_adapt_gpu --gtest_brief=1; $N/test_solver_resolvers --gtest_brief=1 --gtest_filter='Gpu*'" 2>&1 | grep -E "PASSED|FAILED"; } >> $L
{ ALL_RESOLVERS=1 timeout 150 scripts/fields-hashes.sh $N/vbm-fluid cuda 12 3 > $OUT/hashes-cuda.txt; echo "hashes rc=$?";
  diff docs/results/restructure/run1/hashes-old-cuda.txt $OUT/hashes-cuda.txt && echo "CUDA hashes: d19f962 == this commit"; } >> $L 2>&1
cat $L
