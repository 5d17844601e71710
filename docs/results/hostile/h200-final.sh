#!/bin/bash
# Issue 17, H200 run 2 (binaries at f95a709): every GPU test on the final code (the validated
# loader, checkVbmGrid's range check, the finite check), vbm-check --gpu, and the bad-input exit
# codes of the GPU tools on corrupt files.
source docs/results/restructure/h200-setup.sh
N=$C/new; L=$OUT/t.log
{ pwd; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u; } > $L
{ timeout 200 bash -c "$N/test_vbm_gpu --gtest_brief=1; $N/test_adapt_gpu --gtest_brief=1;
  $N/test_solver_resolvers --gtest_brief=1 --gtest_filter='Gpu*'; $N/test_render --gtest_brief=1 --gtest_filter='Gpu*';
  $N/test_bench_cli --gtest_brief=1" 2>&1 | grep -E "tests from|PASSED|FAILED"; echo "tests rc=${PIPESTATUS[0]}"; } >> $L
{ timeout 60 $N/vbm-check --gpu | tail -2; echo "vbm-check --gpu rc=${PIPESTATUS[0]}"; } >> $L 2>&1
# a valid grid from the export, then two corrupt copies of it (a byte of the leaf count, a cut file)
$N/vbm-fluid --headless --scene smoke-plume --frames 2 --render none --export /tmp/ok.nvdb > /dev/null 2>&1
python3 - <<'PY'
b = bytearray(open('/tmp/ok.nvdb', 'rb').read())
open('/tmp/cut.nvdb', 'wb').write(b[: len(b) // 3])
b[len(b) // 2] ^= 0xff
open('/tmp/flip.nvdb', 'wb').write(b)
PY
for f in /tmp/ok.nvdb /tmp/cut.nvdb /tmp/flip.nvdb; do
  { timeout 60 $N/vbm-check --gpu --width 128 $f 2>&1 | tail -1; echo "vbm-check $(basename $f) rc=${PIPESTATUS[0]}";
    timeout 60 $N/vbm-bench --grid $f --rounds 50 --warmup 2 --no-decode 2>&1 | tail -1; echo "vbm-bench --grid $(basename $f) rc=${PIPESTATUS[0]}"; } >> $L
done
{ timeout 60 $N/vbm-fluid --headless --scene smoke-plume --frames 30 --interop on --size 320x240 | tail -3; echo "plume rc=${PIPESTATUS[0]}"; } >> $L 2>&1
cat $L
