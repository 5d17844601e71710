#!/bin/bash
# Issue 14 (MacCormack), H200 run 2, binaries with the mirrored-weight correction (the commit after a41b952): the GPU tests with MacCormack on (the
# default); the 4.2M plume step with semi-Lagrangian and with MacCormack, the two processes
# alternated twice (300 steps each, medians of steps 101-300 from the timings files); a
# screenshot of each at frame 300.
gunzip -f .carry/lib/*.gz 2>/dev/null
source docs/results/restructure/h200-setup.sh
N=$C/new
timeout 150 bash -c "$N/test_solver_resolvers --gtest_brief=1 --gtest_filter='Gpu*'" 2>&1 | grep -E "tests from|PASSED|FAILED"
S=docs/results/maccormack
for round in 1 2; do
  for m in sl mc; do
    timeout 100 $N/vbm-fluid --headless --scene $S/smoke-plume-4m-$m.scene --frames 300 --size 960x720 \
      --timings $OUT/$m-$round.csv --screenshot $OUT/$m-$round.png > $OUT/$m-$round.txt 2>&1
    echo "$m round $round rc=$? $(grep -E '\| step' $OUT/$m-$round.txt)"
  done
done
rm -f $OUT/sl-2.png $OUT/mc-2.png
