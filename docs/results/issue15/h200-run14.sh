#!/bin/bash
# Issue 15, H200 run 14 (session 13). O = vbm-fluid at bf27674 (run 13's N), N = the working
# tree: the prolongation one element per child (TrilinearProlongAdd, kernels/TrilinearTransfer.h)
# and, for the experiment, the cached box passes (the advection's) in the run form when
# VBM_BOX_RUN_LENGTH is 2, 4 or 8 (N2, N4, N8; unset: one slot per thread). Two calls:
#   a: the 4.2M plume, 300 frames, O N N2 N4 N8 twice (medians over frames 101-300, fields
#      hashed after 300); fields-hashes.sh (every resolver, bitwise after every frame) of O, N
#      and N4; ncu durations of N and N4 without cache flushes (600 launches after 20,000);
#   (a returned only its first 8 files: the device tool caps their count; pack outputs next time)
#   b: the GPU tests (test_vbm_gpu from run 13, unchanged code; test_solver_resolvers with and
#      without VBM_BOX_RUN_LENGTH=4; test_adapt_gpu), vbm-check --gpu, memcheck of N and N4.
source docs/results/issue15/h200-setup.sh
X="timeout 200"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
fluid() { # NAME ENV-VALUE BINARY ARGS...
  local name=$1 k=$2 bin=$3; shift 3
  if [ -n "$k" ]; then VBM_BOX_RUN_LENGTH=$k $bin "$@"; else $bin "$@"; fi
}
if [ "$1" = a ]; then
  cols=""
  for i in 1 2; do for v in O N N2 N4 N8; do
    b=$C/new/vbm-fluid; [ $v = O ] && b=$C/old/vbm-fluid; k=${v#N}; [ $v = O ] && k=""
    fluid $v "$k" $b --headless --render none --scene smoke-plume-4m --frames 300 --timings $OUT/$v-$i.csv \
      --export /tmp/$v-$i.nvdb > /tmp/$v-$i.txt 2>&1; echo "$v $i rc=$? fields $(sha256sum /tmp/$v-$i.nvdb | cut -c1-16)"
    cols="$cols $OUT/$v-$i.csv"; done; done
  python3 docs/results/issue15/window-medians.py 101 300 $cols | sed "s|$OUT/||g" | tee $OUT/windows.md
  for v in O N N4; do
    b=$C/new/vbm-fluid; [ $v = O ] && b=$C/old/vbm-fluid; k=${v#N}; [ $v = O ] && k=""
    fluid $v "$k" env ALL_RESOLVERS=1 $X scripts/fields-hashes.sh $b cuda 12 3 > $OUT/hashes-$v.txt 2>&1; echo "hashes $v rc=$?"; done
  diff $OUT/hashes-O.txt $OUT/hashes-N.txt && diff $OUT/hashes-O.txt $OUT/hashes-N4.txt && echo "fields hashes: O, N and N4 identical ($(wc -l < $OUT/hashes-N.txt) lines)"
  for k in "" 4; do
    fluid N "$k" $X ncu --clock-control none --cache-control none --kernel-name-base demangled --launch-skip 20000 --launch-count 600 \
      --metrics gpu__time_duration.sum --csv $C/new/vbm-fluid --headless --render none --scene smoke-plume-4m --frames 400 \
      > /tmp/d.csv 2>/tmp/ncu.err; echo "ncu N$k rc=$?"; grep -v "^\[vbm" /tmp/d.csv | gzip > $OUT/durations-N$k.csv.gz; done
  gzip $OUT/*.csv
fi
if [ "$1" = b ]; then
  { echo "== test_vbm_gpu"; timeout 400 $C/tests/test_vbm_gpu --gtest_brief=1 2>&1 | tail -25
    for k in "" 4; do echo "== test_solver_resolvers VBM_BOX_RUN_LENGTH=$k"
      fluid N "$k" $X $C/tests/test_solver_resolvers --gtest_brief=1 2>&1 | tail -25; done
    echo "== test_adapt_gpu"; $X $C/tests/test_adapt_gpu --gtest_brief=1 2>&1 | tail -25
    $C/tests/vbm-check --gpu > /tmp/check.txt 2>&1; echo "vbm-check rc=$? $(grep -c PASS /tmp/check.txt) PASS"
    for k in "" 4; do echo "== memcheck N$k"
      fluid N "$k" $X compute-sanitizer --tool memcheck $C/new/vbm-fluid --headless --render none --scene smoke-plume --frames 3 2>&1 | tail -2; done
  } > $OUT/tests.log 2>&1
  grep -E "^==|PASSED|FAILED|SKIPPED|rc=|ERROR SUMMARY" $OUT/tests.log
fi
