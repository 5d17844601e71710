#!/bin/bash
# Issue 15, H200 run 33 (session 18): element kernels a thread per element in index order (was: a
# grid capped at 132 x 16 blocks striding over the elements), which run 32 found moving 1.6x (the
# stored residual) to 14x (the restriction) the DRAM bytes they need on the 1B plume.
# O = vbm-fluid at 9b24c97, N = the working tree with that change; bitwise the same by construction
# (each element is independent). a: the 4.2M plume as shipped and with --max-cfl 7 --tap-table on,
# O N O N each (medians over frames 101-300); b: the 1B plume with --tap-table on, O then N (4 steps);
# c: ncu DRAM bytes of one step of the 1B plume with N.
source docs/results/issue15/h200-setup.sh
X="timeout 280"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
R=/tmp/r33; mkdir -p $R
run() { local name=$1 bin=$2; shift 2
  $X $bin --headless --render none --scene smoke-plume-4m --frames 300 --timings $R/$name.csv \
    --export /tmp/$name.nvdb "$@" > $R/$name.txt 2>&1
  echo "$name rc=$? fields $(sha256sum /tmp/$name.nvdb | cut -c1-16)"; }
if [ "${1:-a}" = a ]; then
for i in 1 2; do run O-B-$i $C/old/vbm-fluid; run N-B-$i $C/new/vbm-fluid
  run O-WT-$i $C/old/vbm-fluid --max-cfl 7 --tap-table on; run N-WT-$i $C/new/vbm-fluid --max-cfl 7 --tap-table on; done
python3 docs/results/issue15/window-medians.py 101 300 $R/O-B-1.csv $R/N-B-1.csv $R/O-WT-1.csv $R/N-WT-1.csv \
  $R/O-B-2.csv $R/N-B-2.csv $R/O-WT-2.csv $R/N-WT-2.csv | sed "s|$R/||g" | tee $R/windows.md
for v in old new; do n=plume1b-$v
  $X $C/$v/vbm-fluid --headless --render none --frames 4 --scene docs/results/issue15/smoke-plume-1b.scene --tap-table on \
    --timings $R/timings-$n.csv --export /tmp/$n.nvdb > $R/fluid-$n.log 2>&1
  echo "$n rc=$? fields $(sha256sum /tmp/$n.nvdb | cut -c1-16)"
  grep -E "frame .*/4|step \||pressure CG \||advection \|" $R/fluid-$n.log; done
gzip $R/*.csv; tar -C /tmp -czf $OUT/run33a.tgz r33
else
timeout 330 ncu --clock-control none --cache-control none --kernel-name-base demangled \
  --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum --csv \
  $C/new/vbm-fluid --headless --render none --scene docs/results/issue15/smoke-plume-1b.scene --frames 1 \
  --tap-table on > /tmp/ncu-1b.csv 2>/tmp/ncu-1b.err; echo "ncu 1b rc=$?"
grep -v "^\[vbm" /tmp/ncu-1b.csv | gzip > $OUT/ncu-1b-table-inorder.csv.gz
fi
