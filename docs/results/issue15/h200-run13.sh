#!/bin/bash
# Issue 15, H200 run 13 (session 13). O = vbm-fluid and vbm-bench as main's GPU code (3647de7),
# N = the working tree: a row's slice words picked by selects (pickSliceWord, LeafTaps.h; no
# SliceWord lvalue conditional, so no stack frame) and the advection bodies taking corners from
# taps.octantCorners. Three calls, back to back (the carry limit):
#   a: the 4.2M plume, 300 frames, O N O N (medians over frames 101-300, fields hashed after 300);
#   c: vbm-bench thin, C = 1, width 128, O N O N (every output checked bytewise in each run;
#      the benches in .carry/bold and .carry/bnew);
#   b: GPU tests of N, memcheck, fields-hashes.sh of O and N;
#   d: ncu durations of 600 consecutive launches of N without cache flushes (the CG's small
#      levels as they run), ncu's sections for the multigrid transfers, the 1B plume.
source docs/results/issue15/h200-setup.sh
X="timeout 240"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
if [ "$1" = a ]; then
  for i in 1 2; do for v in old new; do
    $X $C/$v/vbm-fluid --headless --render none --scene smoke-plume-4m --frames 300 --timings $OUT/$v-$i.csv \
      --export /tmp/$v-$i.nvdb > /tmp/$v-$i.txt 2>&1; echo "$v $i rc=$? fields $(sha256sum /tmp/$v-$i.nvdb | cut -c1-16)"; done; done
  python3 docs/results/issue15/window-medians.py 101 300 $OUT/old-1.csv $OUT/new-1.csv $OUT/old-2.csv $OUT/new-2.csv | tee $OUT/windows.md
  gzip $OUT/*.csv
fi
if [ "$1" = c ]; then
  gunzip -f $C/bold/*.gz $C/bnew/*.gz; chmod +x $C/bold/* $C/bnew/*
  for i in 1 2; do for v in old new; do
    $X $C/b$v/vbm-bench --grid thin --channels 1 --widths 128 --no-decode --json $OUT/bench-$v-$i.json > $OUT/bench-$v-$i.md 2>&1
    echo "bench $v $i rc=$? $(grep 'identical to their baseline' $OUT/bench-$v-$i.md)"; done; done
  gzip $OUT/*.json
fi
if [ "$1" = b ]; then
  { for t in test_vbm_gpu test_solver_resolvers test_adapt_gpu; do
      echo "== $t"; $X $C/tests/$t --gtest_brief=1 2>&1 | tail -25; done
    $C/tests/vbm-check --gpu; echo "vbm-check rc=$?"
    $X compute-sanitizer --tool memcheck $C/new/vbm-fluid --headless --render none --scene smoke-plume --frames 3 2>&1 | tail -3
  } > $OUT/tests.log 2>&1
  grep -E "^==|PASSED|FAILED|SKIPPED|rc=|ERROR SUMMARY" $OUT/tests.log
  for v in old new; do ALL_RESOLVERS=1 $X scripts/fields-hashes.sh $C/$v/vbm-fluid cuda 12 3 > $OUT/hashes-$v.txt 2>&1; echo "hashes $v rc=$?"; done
  diff $OUT/hashes-old.txt $OUT/hashes-new.txt && echo "fields hashes: old and new identical ($(wc -l < $OUT/hashes-new.txt) lines)"
fi
if [ "$1" = d ]; then
  $X ncu --clock-control none --cache-control none --kernel-name-base demangled --launch-skip 20000 --launch-count 600 \
    --metrics gpu__time_duration.sum --csv $C/new/vbm-fluid --headless --render none --scene smoke-plume-4m --frames 400 \
    > /tmp/durations.csv 2>/tmp/ncu.err; echo "ncu rc=$?"; grep -v "^\[vbm" /tmp/durations.csv | gzip > $OUT/durations-nocache.csv.gz
  $X ncu --clock-control none --kernel-name-base demangled --kernel-name 'regex:TrilinearRestrict|TrilinearProlongAdd|TableJacobi' \
    --launch-skip 400 --launch-count 12 --section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats \
    --section Occupancy --section LaunchStats $C/new/vbm-fluid --headless --render none --scene smoke-plume-4m --frames 120 \
    > /tmp/ncu-mg.txt 2>&1; echo "ncu mg rc=$?"; grep -v "^\[vbm" /tmp/ncu-mg.txt | gzip > $OUT/ncu-multigrid.txt.gz
  ( while sleep 2; do nvidia-smi --query-gpu=memory.used --format=csv,noheader,nounits; done ) > $OUT/mem-1b.txt &
  w=$!; /usr/bin/time -v timeout 200 $C/new/vbm-fluid --headless --render none --frames 4 \
    --scene docs/results/issue15/smoke-plume-1b.scene --timings $OUT/timings-1b.csv > $OUT/fluid-1b.log 2>&1
  echo "1b rc=$? peak MiB $(sort -n $OUT/mem-1b.txt | tail -1)"; kill $w; grep -E "step|Elapsed" $OUT/fluid-1b.log | tail -6
fi
