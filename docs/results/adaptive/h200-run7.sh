#!/bin/bash
# Adaptive topology (issue 13), H200 run 7 (binaries at d5dfb3e): the 10,000-frame soak of
# smoke-open again, on the one-build dilation, device memory sampled every 200 ms beside it.
source docs/results/restructure/h200-setup.sh
N=$C/new; L=$OUT/g.log
{ pwd; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u; } > $L
nvidia-smi --query-gpu=memory.used --format=csv,noheader,nounits -lms 200 > $OUT/soak-mem.txt & SMI=$!
{ timeout 150 $N/vbm-fluid --headless --scene smoke-open --frames 10000 --render none --timings /tmp/soak.csv | tail -32; echo "soak rc=$?"; } >> $L 2>&1
kill $SMI; gzip -c /tmp/soak.csv > $OUT/soak.csv.gz
tr '\r' '\n' < $L | grep -v "^\[vbm-fluid\] frame" | tail -45
