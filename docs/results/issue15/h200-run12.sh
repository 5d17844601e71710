#!/bin/bash
# Issue 15, H200 run 12 (session 12): octant weights by corner in the advection bodies (registers,
# not local memory) and selects for the row taps in forEachBoxOctantTapOf. O = vbm-fluid at
# c428a17 (.carry/old), N = the working tree (.carry/new). The 4.2M plume, 300 frames, O N O N
# (medians over frames 101-300), fields hashed after 300 frames; fields-hashes.sh of O and N
# diffed; ncu's instruction counts and durations of both advection passes in O and N.
source docs/results/issue15/h200-setup.sh
X="timeout 200"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
for i in 1 2; do for v in old new; do
  $X $C/$v/vbm-fluid --headless --render none --scene smoke-plume-4m --frames 300 --timings $OUT/$v-$i.csv \
    --export /tmp/$v-$i.nvdb > /tmp/$v-$i.txt 2>&1; echo "$v $i rc=$? fields $(sha256sum /tmp/$v-$i.nvdb | cut -c1-16)"; done; done
python3 docs/results/issue15/window-medians.py 101 300 $OUT/old-1.csv $OUT/new-1.csv $OUT/old-2.csv $OUT/new-2.csv | tee $OUT/windows.md
for v in old new; do ALL_RESOLVERS=1 $X scripts/fields-hashes.sh $C/$v/vbm-fluid cuda 12 3 > $OUT/hashes-$v.txt 2>&1; echo "hashes $v rc=$?"; done
diff $OUT/hashes-old.txt $OUT/hashes-new.txt && echo "fields hashes: old and new identical ($(wc -l < $OUT/hashes-new.txt) lines)"
for v in old new; do
  $X ncu --clock-control none --kernel-name-base demangled --launch-skip 1400 --launch-count 2 --kernel-name 'regex:Advect|MacCormack' \
    --metrics gpu__time_duration.sum,smsp__inst_executed.sum,launch__registers_per_thread,smsp__sass_inst_executed_op_local_ld.sum,smsp__sass_inst_executed_op_local_st.sum \
    $C/$v/vbm-fluid --headless --render none --scene smoke-plume-4m --frames 120 > /tmp/ncu-$v.txt 2>&1
  echo "== ncu $v"; grep -E "^  void|gpu__time|inst_executed|registers" /tmp/ncu-$v.txt | sed 's/(VbmView.*//' | tee -a $OUT/ncu.txt
done
gzip $OUT/*.csv
