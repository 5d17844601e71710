#!/bin/bash
# Issue 15, H200 run 20 (session 14): the multigrid transfers. O = vbm-fluid at 0f741fd (main),
# V1 = the working tree with trilinear::Neighbourhood's links from word operations (boxesFull)
# instead of 27 x 7 tests, V2 = V1 with the transfers' element kernels under launch bounds
# (TrilinearRestrict 6 blocks of 256: 40 registers, 28 B spilled; TrilinearProlongAdd 5: 48
# registers, 44 B spilled). The 4.2M plume O V1 V2 twice (medians over frames 101-300, fields
# hashed after 300); ncu durations of the transfer kernels; fields-hashes.sh of V1 and V2
# against run 18's (the same O binary); the GPU tests of V2 (.carry/tests).
source docs/results/issue15/h200-setup.sh
for d in v1 v2; do gunzip -f $C/$d/*.gz; chmod +x $C/$d/*; done
X="timeout 200"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
R=/tmp/r20; mkdir -p $R
for i in 1 2; do for v in old v1 v2; do
  $X $C/$v/vbm-fluid --headless --render none --scene smoke-plume-4m --frames 300 --timings $R/$v-$i.csv \
    --export /tmp/$v-$i.nvdb > $R/$v-$i.txt 2>&1; echo "$v $i rc=$? fields $(sha256sum /tmp/$v-$i.nvdb | cut -c1-16)"; done; done
python3 docs/results/issue15/window-medians.py 101 300 $R/old-1.csv $R/v1-1.csv $R/v2-1.csv $R/old-2.csv $R/v1-2.csv $R/v2-2.csv | sed "s|$R/||g" | tee $R/windows.md
for v in old v1 v2; do
  $X ncu --clock-control none --cache-control none --kernel-name-base demangled --kernel-name 'regex:Trilinear' --launch-skip 100 --launch-count 40 \
    --metrics gpu__time_duration.sum,launch__registers_per_thread,sm__warps_active.avg.pct_of_peak_sustained_active,launch__grid_size --csv \
    $C/$v/vbm-fluid --headless --render none --scene smoke-plume-4m --frames 40 > $R/ncu-$v.csv 2>&1; echo "ncu $v rc=$?"; done
python3 - $R <<'PY'
import csv, sys, statistics, collections
for v in ("old", "v1", "v2"):
    rows = [r for r in csv.reader(open(f"{sys.argv[1]}/ncu-{v}.csv")) if len(r) > 10 and r[0].isdigit()]
    by = collections.defaultdict(dict)
    for r in rows: by[(r[4].split("<")[1].split(">")[0] if "<" in r[4] else r[4], r[0])][r[-3]] = r[-1]
    agg = collections.defaultdict(list)
    for (k, _), m in by.items():
        agg[(k, m.get("launch__grid_size"), m.get("launch__registers_per_thread"))].append(float(m.get("gpu__time_duration.sum", "nan")))
    for (k, g, reg), t in sorted(agg.items()): print(v, k, "grid", g, "regs", reg, "median us %.2f" % (statistics.median(t) / 1000), "n", len(t))
PY
for v in v1 v2; do ALL_RESOLVERS=1 $X scripts/fields-hashes.sh $C/$v/vbm-fluid cuda 12 3 > $R/hashes-$v.txt 2>&1; echo "hashes $v rc=$?"
  diff docs/results/issue15/run18/hashes-new.txt $R/hashes-$v.txt && echo "fields hashes: $v identical to run 18's O"; done
{ for t in test_solver_resolvers test_adapt_gpu; do echo "== $t"; $X $C/tests/$t --gtest_brief=1 2>&1 | tail -25; done; } > $R/tests.log 2>&1
grep -E "^==|PASSED|FAILED" $R/tests.log
gzip $R/*.csv; tar -C /tmp -czf $OUT/run20.tgz r20
