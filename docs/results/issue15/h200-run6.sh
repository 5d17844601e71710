#!/bin/bash
# Issue 15, H200 run 6 (session 11): the run form of the block skeleton (a thread takes K
# consecutive slots, decodes the first, steps to the rest). .carry/new = the working tree.
#  - the resolver comparison, small and thin, C = 1, both widths: the one-slot variants and the
#    run form at K = 1, 2, 4, 8 in the same rounds (outputs checked bytewise against the baselines);
#  - the 4.2M plume, stencil passes one slot per thread (VBM_RUN_LENGTH unset) and in runs of 4,
#    alternating twice;
#  - test_vbm_gpu (every resolver through the run form on the device, too);
#  - ncu instruction counts of the cached consumers, thin, w128.
source docs/results/issue15/h200-setup.sh
B=$C/new X="timeout 240"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
$X $B/vbm-bench --grid small --grid thin --channels 1 --no-decode --json $OUT/bench-runs.json > $OUT/bench-runs.md 2>&1
echo "bench rc=$? $(grep -c MISMATCH $OUT/bench-runs.md) mismatches; $(grep 'identical to their baseline' $OUT/bench-runs.md)"
for i in 1 2; do for k in 1 4; do
  VBM_RUN_LENGTH=$k $X $B/vbm-bench --solver smoke-plume-4m --steps 300 > /tmp/p.md 2>&1
  echo "plume k=$k #$i rc=$? $(grep -E '\*\*step\*\*|identical' /tmp/p.md | head -2 | tr '\n' ' ')"
  { echo "#### VBM_RUN_LENGTH=$k, round $i"; cat /tmp/p.md; } >> $OUT/plumes.md; done; done
{ echo "== test_vbm_gpu"; $X $C/tests/test_vbm_gpu --gtest_brief=1 2>&1 | tail -8; } > $OUT/tests.log 2>&1
grep -E "^==|PASSED|FAILED|SKIPPED" $OUT/tests.log
$X ncu --clock-control none --kernel-name-base demangled -c 10 \
  --kernel-name 'regex:vbmConsumer<\(int\)7, \(vbm::Resolver\)[46]|vbmRunConsumer<\(int\)7, \(vbm::Resolver\)[46], \(int\)1, \(int\)[14]>|denseConsumer' \
  --metrics gpu__time_duration.sum,smsp__inst_executed.sum,launch__registers_per_thread,sm__warps_active.avg.pct_of_peak_sustained_active,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,dram__bytes.sum \
  $B/vbm-bench --grid thin --channels 1 --widths 128 --rounds 1 --warmup 0 --no-decode > /tmp/ncu.txt 2>&1; echo "ncu rc=$?"
grep -v "timed round" /tmp/ncu.txt | gzip > $OUT/ncu-run6.txt.gz
gzip $OUT/bench-runs.json
