#!/bin/bash
# Adaptive topology (issue 13), H200 run 2 (run 1 found the DilateGrid stream race: CudaTopology.cuh). .carry/new: this commit's binaries; .carry/old: the
# commit before the issue (98b25d2), for the fixed-topology step timed old/new interleaved.
source docs/results/restructure/h200-setup.sh
# outputs go to one archive (the device tool brings back a few files only)
R=$OUT; OUT=/tmp/run2; mkdir -p $OUT; trap 'tar czf $R/run2.tgz -C /tmp run2' EXIT
N=$C/new; O=$C/old
{ pwd; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
  $N/test_adapt_gpu --gtest_brief=1
  $N/test_vbm_gpu --gtest_brief=1
  $N/test_solver_resolvers --gtest_brief=1 --gtest_filter='Gpu*'
  $N/test_render --gtest_brief=1 --gtest_filter='Gpu*'
  $N/test_bench_cli --gtest_brief=1
  $N/vbm-check --gpu; echo "vbm-check rc=$?"; } > $OUT/tests.log 2>&1
grep -E "PASSED|FAILED|passed,|rc=" $OUT/tests.log
compute-sanitizer --tool memcheck $N/test_adapt_gpu --gtest_filter='*Topology*' > $OUT/memcheck.log 2>&1; echo "memcheck rc=$?"; tail -2 $OUT/memcheck.log
ALL_RESOLVERS=1 scripts/fields-hashes.sh $N/vbm-fluid cuda 12 3 > $OUT/hashes-new-cuda.txt 2>&1; echo "hashes rc=$?"
diff docs/results/restructure/run1/hashes-old-cuda.txt $OUT/hashes-new-cuda.txt && echo "CUDA hashes: d19f962 == this commit"
$N/vbm-fluid --headless --scene smoke-open --frames 14 --resolver all --interop on --timings $OUT/open-all.csv > $OUT/open-all.log 2>&1; echo "open all rc=$?"
grep -E "identical|Host copies|rebuilt" $OUT/open-all.log | head -5
nvidia-smi --query-gpu=memory.used --format=csv,noheader,nounits -lms 250 > $OUT/soak-mem.txt & SMI=$!
$N/vbm-fluid --headless --scene smoke-open --frames 10000 --render none --timings $OUT/soak.csv > $OUT/soak.log 2>&1; echo "soak rc=$?"
kill $SMI; tail -3 $OUT/soak.log
$N/vbm-bench --solver smoke-open-4m --grow-steps 300 --steps 120 --json $OUT/bench-open-4m.json > $OUT/bench-open-4m.md 2> $OUT/bench-open-4m.err; echo "bench rc=$?"
cat $OUT/bench-open-4m.md
for r in 1 2; do for v in old new; do
  $C/$v/vbm-bench --solver smoke-plume-4m --steps 40 > $OUT/plume4m-$v-$r.md 2>/dev/null
  echo "$v $r: $(grep -F '**step**' $OUT/plume4m-$v-$r.md)"; done; done
$N/vbm-fluid --headless --scene smoke-open-4m --frames 400 --timings $OUT/open4m.csv --screenshot $OUT/open4m.png > $OUT/open4m.log 2>&1; echo "open4m rc=$?"
tail -4 $OUT/open4m.log
