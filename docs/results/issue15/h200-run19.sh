#!/bin/bash
# Issue 15, H200 run 19 (session 14): what runs 17-18 left out. O = vbm-fluid at 0fd500d, N =
# 0f741fd (smoke's workspace in 5 arrays, CG's directions ping-ponging). fields-hashes.sh of O and N
# on the fire and adaptive scenes (every resolver, compared bitwise frame by frame; runs 17-18
# hashed the other built-ins); the 1B plume with N (4 steps, memory peak from nvidia-smi).
source docs/results/issue15/h200-setup.sh
X="timeout 200"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
R=/tmp/r19; mkdir -p $R
for v in old new; do SCENES="fire-small fire smoke-open" ALL_RESOLVERS=1 $X scripts/fields-hashes.sh $C/$v/vbm-fluid cuda 12 3 \
  > $R/hashes-$v.txt 2>&1; echo "hashes $v rc=$?"; done
diff $R/hashes-old.txt $R/hashes-new.txt && echo "fields hashes: old and new identical ($(wc -l < $R/hashes-new.txt) lines)"; cat $R/hashes-new.txt
( while sleep 1; do nvidia-smi --query-gpu=memory.used --format=csv,noheader,nounits; done ) > $R/mem-1b-new.txt &
w=$!; /usr/bin/time -v $X $C/new/vbm-fluid --headless --render none --frames 4 \
  --scene docs/results/issue15/smoke-plume-1b.scene --timings $R/timings-1b-new.csv > $R/fluid-1b-new.log 2>&1
echo "1b new rc=$? peak MiB $(sort -n $R/mem-1b-new.txt | tail -1)"; kill $w; grep -E "memory:|frame .*/4|step \||Elapsed" $R/fluid-1b-new.log
tar -C /tmp -czf $OUT/run19.tgz r19
