#!/bin/bash
# Issue 15, H200 run 6b (session 11): where the cached cross's instructions go. The SASS of the
# cross and box consumers (one slot per thread, and runs of 4) and of the dense 7-point floor,
# and ncu's instruction mix of those kernels on the thin shell, w128, C = 1.
source docs/results/issue15/h200-setup.sh
B=$C/new X="timeout 240"
cuobjdump -sass $B/vbm-bench | awk '/Function : /{keep = ($0 ~ /vbmConsumerILi7ELN3vbm8ResolverE[46]ELi1EE|vbmRunConsumerILi7ELN3vbm8ResolverE[46]ELi1ELi4EE|denseConsumerILi1ELb0E/)} keep' | gzip > $OUT/sass.txt.gz
echo "sass: $(zcat $OUT/sass.txt.gz | grep -c 'Function :') functions, $(zcat $OUT/sass.txt.gz | wc -l) lines"
$X ncu --clock-control none --kernel-name-base demangled -c 7 \
  --kernel-name 'regex:vbmConsumer<\(int\)7, \(vbm::Resolver\)[46], \(int\)1>|vbmRunConsumer<\(int\)7, \(vbm::Resolver\)[46], \(int\)1, \(int\)4>|denseConsumer<\(int\)1, \(bool\)0' \
  --section InstructionStats --section WarpStateStats --section SchedulerStats --section Occupancy --print-details all \
  --metrics gpu__time_duration.sum,smsp__inst_executed.sum,launch__registers_per_thread,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,smsp__thread_inst_executed.sum \
  $B/vbm-bench --grid thin --channels 1 --widths 128 --rounds 5 --warmup 0 --no-decode > /tmp/ncu.txt 2>&1; echo "ncu rc=$?"
grep -v "timed round" /tmp/ncu.txt | gzip > $OUT/ncu-run6b.txt.gz
grep -E "Profiling|gpu__time_duration|smsp__inst_executed.sum |thread_inst" /tmp/ncu.txt | head -40
