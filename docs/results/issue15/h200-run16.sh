#!/bin/bash
# Issue 15, H200 run 16 (session 13): the CG's solution update reads two elements ahead
# (UpdateSolution::load/store, ReduceReadAhead in solver/CudaKernels.cuh; the same sums in the
# same order). O = vbm-fluid at bf27674 (.carry/old, main's code before), N = the working tree.
# The 4.2M plume O N O N (medians over frames 101-300, fields hashed after 300), fields-hashes.sh
# of O and N, test_solver_resolvers and test_adapt_gpu of N, ncu on the update in O and N.
# Outputs packed into one tar.
source docs/results/issue15/h200-setup.sh
X="timeout 200"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
mkdir -p /tmp/r16
for i in 1 2; do for v in old new; do
  $X $C/$v/vbm-fluid --headless --render none --scene smoke-plume-4m --frames 300 --timings /tmp/r16/$v-$i.csv \
    --export /tmp/$v-$i.nvdb > /tmp/$v-$i.txt 2>&1; echo "$v $i rc=$? fields $(sha256sum /tmp/$v-$i.nvdb | cut -c1-16)"; done; done
python3 docs/results/issue15/window-medians.py 101 300 /tmp/r16/old-1.csv /tmp/r16/new-1.csv /tmp/r16/old-2.csv /tmp/r16/new-2.csv | sed 's|/tmp/r16/||g' | tee /tmp/r16/windows.md
for v in old new; do ALL_RESOLVERS=1 $X scripts/fields-hashes.sh $C/$v/vbm-fluid cuda 12 3 > /tmp/r16/hashes-$v.txt 2>&1; echo "hashes $v rc=$?"; done
diff /tmp/r16/hashes-old.txt /tmp/r16/hashes-new.txt && echo "fields hashes: old and new identical ($(wc -l < /tmp/r16/hashes-new.txt) lines)"
{ for t in test_solver_resolvers test_adapt_gpu; do echo "== $t"; $X $C/tests/$t --gtest_brief=1 2>&1 | tail -25; done; } > /tmp/r16/tests.log 2>&1
grep -E "^==|PASSED|FAILED" /tmp/r16/tests.log
for v in old new; do
  $X ncu --clock-control none --cache-control none --kernel-name-base demangled --kernel-name 'regex:UpdateSolution' --launch-skip 100 --launch-count 3 \
    --metrics gpu__time_duration.sum,launch__registers_per_thread,dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__warps_active.avg.pct_of_peak_sustained_active \
    $C/$v/vbm-fluid --headless --render none --scene smoke-plume-4m --frames 60 > /tmp/r16/ncu-$v.txt 2>&1
  echo "== ncu $v"; grep -E "gpu__time|registers|dram__|warps_active" /tmp/r16/ncu-$v.txt; done
gzip /tmp/r16/*.csv; tar -C /tmp -czf $OUT/run16.tgz r16
