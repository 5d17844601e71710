#!/bin/bash
# Issue 15, H200 run 23 (session 15): the fine level's prolongation onto the first sweep formed again
# from r (TrilinearProlongOntoFirstSweep: x = sweep + correction, no read of x), and both
# prolongations' loads before their stores; the stores after the loads in DirectionLaplacianDot,
# JacobiSmoothDot (b read once), MacCormackCorrect, FacesFromCentres, CentresFromFaces and
# SubtractGradient, Emit and ConfinementForce. O = vbm-fluid at ab8b94e (main), N = the working tree.
# Part a: the 4.2M plume O N O N (medians over frames 101-300, fields hashed after 300); ncu
# durations of the kernels the change touches; fields-hashes.sh of N against runs 18 and 19.
# Part b: the GPU tests and memcheck of N; the 1B plume, O then N (4 steps, peak memory).
source docs/results/issue15/h200-setup.sh
X="timeout 280"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
R=/tmp/r23; mkdir -p $R
part=${1:-a}
if [ "$part" = a ]; then
for i in 1 2; do for v in old new; do
  $X $C/$v/vbm-fluid --headless --render none --scene smoke-plume-4m --frames 300 --timings $R/$v-$i.csv \
    --export /tmp/$v-$i.nvdb > $R/$v-$i.txt 2>&1; echo "$v $i rc=$? fields $(sha256sum /tmp/$v-$i.nvdb | cut -c1-16)"; done; done
python3 docs/results/issue15/window-medians.py 101 300 $R/old-1.csv $R/new-1.csv $R/old-2.csv $R/new-2.csv | sed "s|$R/||g" | tee $R/windows.md
for v in old new; do
  $X ncu --clock-control none --cache-control none --kernel-name-base demangled \
    --kernel-name 'regex:Trilinear|UpdateSolution|Residual<|JacobiSmoothDot|DirectionLaplacianDot|MacCormack|FacesFromCentres|CentresFromFaces|SubtractGradient' --launch-skip 300 --launch-count 200 \
    --metrics gpu__time_duration.sum,launch__registers_per_thread,launch__grid_size --csv \
    $C/$v/vbm-fluid --headless --render none --scene smoke-plume-4m --frames 40 > $R/ncu-$v.csv 2>&1; echo "ncu $v rc=$?"; done
python3 - $R <<'PY' | tee $R/ncu-medians.txt
import csv, sys, statistics, collections
for v in ("old", "new"):
    rows = [r for r in csv.reader(open(f"{sys.argv[1]}/ncu-{v}.csv")) if len(r) > 10 and r[0].isdigit()]
    by = collections.defaultdict(dict)
    for r in rows: by[(r[4].split("(")[0], r[0])][r[-3]] = r[-1]
    agg = collections.defaultdict(list)
    for (k, _), m in by.items():
        agg[(k, m.get("launch__grid_size"), m.get("launch__registers_per_thread"))].append(float(m.get("gpu__time_duration.sum", "nan").replace(",", "")))
    for (k, g, reg), t in sorted(agg.items()): print(v, k, "grid", g, "regs", reg, "median us %.2f" % (statistics.median(t) / 1000), "n", len(t))
PY
ALL_RESOLVERS=1 $X scripts/fields-hashes.sh $C/new/vbm-fluid cuda 12 3 > $R/hashes-new.txt 2>&1; echo "hashes rc=$?"
diff docs/results/issue15/run18/hashes-new.txt $R/hashes-new.txt && echo "fields hashes: identical to run 18's O"
SCENES="fire-small fire smoke-open" ALL_RESOLVERS=1 $X scripts/fields-hashes.sh $C/new/vbm-fluid cuda 12 3 > $R/hashes-new-fire-open.txt 2>&1; echo "hashes rc=$?"
diff docs/results/issue15/run19/hashes-old.txt $R/hashes-new-fire-open.txt && echo "fields hashes (fire, open): identical to run 19's O"
gzip $R/*.csv; tar -C /tmp -czf $OUT/run23a.tgz r23
else
{ for t in test_solver_resolvers test_adapt_gpu; do echo "== $t"; $X $C/tests/$t --gtest_brief=1 2>&1 | tail -25; done; } > $R/tests.log 2>&1
grep -E "^==|PASSED|FAILED" $R/tests.log
for s in smoke-plume smoke-open; do
  $X compute-sanitizer --tool memcheck --error-exitcode 3 $C/new/vbm-fluid --headless --render none --scene $s --frames 4 > $R/memcheck-$s.txt 2>&1
  echo "memcheck $s rc=$? $(grep -E 'ERROR SUMMARY' $R/memcheck-$s.txt)"; done
[ "${SKIP_1B:-0}" = 1 ] || for v in old new; do
  ( while sleep 1; do nvidia-smi --query-gpu=memory.used --format=csv,noheader,nounits; done ) > $R/mem-1b-$v.txt & w=$!
  /usr/bin/time -v $X $C/$v/vbm-fluid --headless --render none --frames 4 \
    --scene docs/results/issue15/smoke-plume-1b.scene --timings $R/timings-1b-$v.csv > $R/fluid-1b-$v.log 2>&1
  echo "1b $v rc=$? peak MiB $(sort -n $R/mem-1b-$v.txt | tail -1)"; kill $w; grep -E "memory:|frame .*/4|step \||pressure CG \||Elapsed" $R/fluid-1b-$v.log; done
tar -C /tmp -czf $OUT/run23b.tgz r23
fi
