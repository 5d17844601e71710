#!/bin/bash
# Issue 15, H200 run 29 (session 17): N = the working tree with --max-cfl and the fixed-domain cap raised
# from 2^31 voxels to the VBM's 2^32 - 1024.
# Part a: --max-cfl 7 on the 4.2M plume must give run 28's W fields (47353ad42fdc141d: the flag is
# the scene key), the default run 28's B (e70b80586edb6032); the GPU tests; then the 2.7G plume
# (docs/results/issue15/smoke-plume-2p7b.scene) with --scalars half --max-cfl 7, 4 steps, peak memory.
# Part b: the same 2.7G plume with --scalars half and the default max_cfl.
source docs/results/issue15/h200-setup.sh
X="timeout 400"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader; date -u
R=/tmp/r29; mkdir -p $R
part=${1:-a}
big() { # NAME ARGS...: the 2.7G plume, 4 steps
  local name=$1; shift
  ( while sleep 1; do nvidia-smi --query-gpu=memory.used --format=csv,noheader,nounits; done ) > $R/mem-$name.txt & w=$!
  /usr/bin/time -v $X $C/new/vbm-fluid --headless --render none --frames 4 --scene docs/results/issue15/smoke-plume-2p7b.scene \
    --timings $R/timings-$name.csv "$@" > $R/fluid-$name.log 2>&1
  echo "$name rc=$? peak MiB $(sort -n $R/mem-$name.txt | tail -1)"; kill $w
  grep -E "scene:|memory:|advection:|frame .*/4|step \||pressure CG \||advection \||Elapsed|Maximum resident|vbm-fluid:" $R/fluid-$name.log
}
if [ "$part" = a ]; then
for v in default wide; do
  a=""; [ $v = wide ] && a="--max-cfl 7"
  $X $C/new/vbm-fluid --headless --render none --scene smoke-plume-4m --frames 300 $a --export /tmp/$v.nvdb > $R/plume-$v.txt 2>&1
  echo "plume $v rc=$? fields $(sha256sum /tmp/$v.nvdb | cut -c1-16) $(grep -E 'advection:' $R/plume-$v.txt)"; done
{ for t in test_solver_resolvers; do echo "== $t"; $X $C/tests/$t --gtest_brief=1 2>&1 | tail -30; done; } > $R/tests.log 2>&1
grep -E "^==|PASSED|FAILED" $R/tests.log
big 2p7b-half-wide --scalars half --max-cfl 7
tar -C /tmp -czf $OUT/run29a.tgz r29
else
big 2p7b-half --scalars half
tar -C /tmp -czf $OUT/run29b.tgz r29
fi
