#!/bin/bash
# Issue 15, H200 run 34 (session 19): every GPU test suite on the code of the session's first
# commit (session 18's element kernels in index order, 48dde6a, plus the stored sum kernel calling
# blockTreeSum and HostExec's shared sum of partials), which session 18 could not run for lack of
# device time; then where a 1B step's time goes now (ncu, as run 32, after run 33's in-order launch).
# Two calls (the binaries exceed one carry): a: test_vbm_gpu, test_solver_resolvers, vbm-check --gpu,
# the 4.2M plume's fields after 300 frames (as shipped and with --max-cfl 7 --tap-table on; run 30:
# e70b80586edb6032 and 47353ad42fdc141d), compute-sanitizer memcheck of smoke-plume with and without
# the tap table. b (.carry2/tests added): test_tap_table, test_half_gpu, test_adapt_gpu, test_render
# (GpuRender), memcheck of smoke-open with and without the table, ncu of one 1B step with the table.
source docs/results/issue15/h200-setup.sh
X="timeout 280"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
R=/tmp/r34; mkdir -p $R
# test_render's probe runs vbm-fluid at the path it was built with
mkdir -p /work/main/build/bin; [ -e /work/main/build/bin/vbm-fluid ] || ln -sf $C/new/vbm-fluid /work/main/build/bin/vbm-fluid
memcheck() { # SCENE: 4 frames with and without the tap table
  for t in "" "--tap-table on"; do n=memcheck-$1${t:+-table}
    timeout 120 compute-sanitizer --tool memcheck --error-exitcode 3 $C/new/vbm-fluid --headless --render none \
      --scene $1 --frames 4 $t > $R/$n.txt 2>&1; echo "$n rc=$? $(grep -E 'ERROR SUMMARY' $R/$n.txt)"; done; }
suite() { echo "== $*"; $X "$@" --gtest_brief=1 2>&1 | tail -25; }
if [ "${1:-a}" = a ]; then
  { suite $C/tests/test_vbm_gpu; suite $C/tests/test_solver_resolvers
    echo "== vbm-check --gpu"; $X $C/tests/vbm-check --gpu 2>&1 | tail -4; echo "vbm-check rc=$?"
  } > $R/tests-a.log 2>&1
  grep -E "^==|PASSED|FAILED|SKIPPED|rc=|ran\." $R/tests-a.log
  for t in "" "--max-cfl 7 --tap-table on"; do n=plume${t:+-wt}
    $X $C/new/vbm-fluid --headless --render none --scene smoke-plume-4m --frames 300 --export /tmp/$n.nvdb $t > $R/$n.txt 2>&1
    echo "$n rc=$? fields $(sha256sum /tmp/$n.nvdb | cut -c1-16)"; done
  memcheck smoke-plume
  tar -C /tmp -czf $OUT/run34a.tgz r34
else
  mkdir -p $C/tests; for f in .carry2/tests/*.gz; do gunzip -c $f > $C/tests/$(basename $f .gz); done; chmod +x $C/tests/*
  { suite $C/tests/test_tap_table; suite $C/tests/test_half_gpu; suite $C/tests/test_adapt_gpu
    suite $C/tests/test_render; } > $R/tests-b.log 2>&1
  grep -E "^==|PASSED|FAILED|SKIPPED|ran\." $R/tests-b.log
  memcheck smoke-open
  timeout 330 ncu --clock-control none --cache-control none --kernel-name-base demangled \
    --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum --csv \
    $C/new/vbm-fluid --headless --render none --scene docs/results/issue15/smoke-plume-1b.scene --frames 1 \
    --tap-table on --timings $R/timings-1b-ncu.csv > /tmp/ncu-1b.csv 2>/tmp/ncu-1b.err; echo "ncu 1b rc=$?"
  grep -v "^\[vbm" /tmp/ncu-1b.csv | gzip > $R/ncu-1b-table.csv.gz; tail -n 3 /tmp/ncu-1b.err
  tar -C /tmp -czf $OUT/run34b.tgz r34
fi
