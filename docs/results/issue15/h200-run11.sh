#!/bin/bash
# Issue 15, H200 run 11 (session 12): where the 4.2M plume step's time goes at c428a17, kernel by
# kernel. (a) ncu's duration of 600 consecutive launches after 200 frames' warm-up, summed per
# kernel name; (b) ncu's detail sections for the advection's two box passes (Advect, MacCormack) after 100 frames (--launch-skip counts matching launches only); "b" runs (b) alone.
source docs/results/issue15/h200-setup.sh
B=$C/new/vbm-fluid X="timeout 280"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
[ -n "$1" ] || $X ncu --clock-control none --kernel-name-base demangled --launch-skip 20000 --launch-count 600 \
  --metrics gpu__time_duration.sum --csv --page raw \
  $B --headless --render none --scene smoke-plume-4m --frames 400 > /tmp/durations.csv 2>/tmp/ncu-a.err; echo "ncu a rc=$?"
[ -n "$1" ] || gzip -c /tmp/durations.csv > $OUT/durations.csv.gz; tail -3 /tmp/ncu-a.err
[ "$1" = c ] || $X ncu --clock-control none --kernel-name-base demangled --launch-skip 1400 --launch-count 2 \
  --kernel-name 'regex:Advect|MacCormack' --set full --print-details all \
  $B --headless --render none --scene smoke-plume-4m --frames 400 > /tmp/ncu-b.txt 2>&1; echo "ncu b rc=$?"
grep -v "^\[vbm-fluid\]" /tmp/ncu-b.txt | gzip > $OUT/ncu-advection.txt.gz
grep -E "^  [a-zA-Z].*\(|Duration|Registers Per|Achieved Occ|Theoretical Occ|Memory Throughput|Executed Ipc A|L1/TEX Hit|L2 Hit|DRAM Through|Compute \(SM\)" /tmp/ncu-b.txt | head -40
# (c) "c": the SASS of both passes with ncu's per-instruction counts (instructions executed, stall
# samples), to see which lines the instructions go to.
if [ "$1" = c ]; then
  $X ncu --clock-control none --kernel-name-base demangled --launch-skip 1400 --launch-count 2 \
    --kernel-name 'regex:Advect|MacCormack' --section SourceCounters --section WarpStateStats --page source --print-source sass --csv \
    $B --headless --render none --scene smoke-plume-4m --frames 400 2>&1 | grep -v "^\[vbm-fluid\]" | gzip > $OUT/sass-advection.csv.gz
  echo "sass lines: $(zcat $OUT/sass-advection.csv.gz | wc -l)"
fi
