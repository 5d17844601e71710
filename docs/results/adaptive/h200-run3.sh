#!/bin/bash
# Adaptive topology (issue 13), H200 run 3, part A: the GPU tests, memcheck of the device
# builder, the fixed-topology fields' hashes on CUDA, --resolver all on smoke-open, and the
# 10,000-frame soak. Every command has a time limit; outputs are few files (the device tool
# brings back only a handful). Run 2 lost its outputs to the 600 s limit.
source docs/results/restructure/h200-setup.sh
N=$C/new; L=$OUT/a.log
{ pwd; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u; } > $L
{ timeout 150 bash -c "$N/test_adapt_gpu --gtest_brief=1; $N/test_vbm_gpu --gtest_brief=1;
  $N/test_solver_resolvers --gtest_brief=1 --gtest_filter='Gpu*'; $N/test_render --gtest_brief=1 --gtest_filter='Gpu*';
  $N/test_bench_cli --gtest_brief=1; $N/vbm-check --gpu; echo vbm-check rc=\$?"; echo "tests rc=$?"; } >> $L 2>&1
{ timeout 60 compute-sanitizer --tool memcheck $N/test_adapt_gpu --gtest_filter='*Topology*' | tail -4; echo "memcheck rc=$?"; } >> $L 2>&1
{ ALL_RESOLVERS=1 timeout 120 scripts/fields-hashes.sh $N/vbm-fluid cuda 12 3 > $OUT/hashes-new-cuda.txt; echo "hashes rc=$?"
  diff docs/results/restructure/run1/hashes-old-cuda.txt $OUT/hashes-new-cuda.txt && echo "CUDA hashes: d19f962 == this commit"; } >> $L 2>&1
{ timeout 30 $N/vbm-fluid --headless --scene smoke-open --frames 14 --resolver all --interop on | tail -25; echo "open all rc=$?"; } >> $L 2>&1
nvidia-smi --query-gpu=memory.used --format=csv,noheader,nounits -lms 200 > $OUT/soak-mem.txt & SMI=$!
{ timeout 100 $N/vbm-fluid --headless --scene smoke-open --frames 10000 --render none --timings /tmp/soak.csv | tail -30; echo "soak rc=$?"; } >> $L 2>&1
kill $SMI; gzip -c /tmp/soak.csv > $OUT/soak.csv.gz
grep -E "PASSED|FAILED|passed,|rc=|==" $L
