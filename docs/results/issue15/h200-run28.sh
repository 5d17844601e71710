#!/bin/bash
# Issue 15, H200 run 28 (session 17): wide advection substeps (scene max_cfl above 1: the trilinear
# corners found up to 7 voxels away through the leaf's box row, kernels/WideAdvectionBodies.h).
# N = the working tree at max_cfl 1 (the default: box taps, must hash as run 25's e70b80586edb6032),
# W = the same binary on the same scene with max_cfl 7 appended, WH = W with --scalars half.
# Part a: the 4.2M plume N W WH N W WH (medians over frames 101-300); every resolver in turn on wide
# variants of the plume, fire and the open domain (identical within each); the GPU tests; memcheck.
# Part b: the 1B plume N then W (4 steps, peak memory); the 1.1M plume rendered at frame 240, N and W.
source docs/results/issue15/h200-setup.sh
X="timeout 280"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
R=/tmp/r28; mkdir -p $R
part=${1:-a}
wide() { { cat "$1"; echo "max_cfl 7"; } > "$2"; }
wide assets/scenes/smoke-plume-4m.scene /tmp/plume4m-wide.scene
run() { # NAME SCENE ARGS...: 300 frames, timings and fields
  local name=$1 scene=$2; shift 2
  $X $C/new/vbm-fluid --headless --render none --scene $scene --frames 300 --timings $R/$name.csv \
    --export /tmp/$name.nvdb "$@" > $R/$name.txt 2>&1
  echo "$name rc=$? fields $(sha256sum /tmp/$name.nvdb | cut -c1-16) $(grep -E 'memory:' $R/$name.txt)"
}
if [ "$part" = a ]; then
for i in 1 2; do
  run box-$i smoke-plume-4m; run wide-$i /tmp/plume4m-wide.scene; run widehalf-$i /tmp/plume4m-wide.scene --scalars half; done
python3 docs/results/issue15/window-medians.py 101 300 $R/box-1.csv $R/wide-1.csv $R/widehalf-1.csv $R/box-2.csv \
  $R/wide-2.csv $R/widehalf-2.csv | sed "s|$R/||g" | tee $R/windows.md
for s in smoke-plume fire-small fire smoke-open; do wide assets/scenes/$s.scene /tmp/$s-wide.scene; done
SCENES="/tmp/smoke-plume-wide.scene /tmp/fire-small-wide.scene /tmp/fire-wide.scene /tmp/smoke-open-wide.scene" \
  ALL_RESOLVERS=1 $X scripts/fields-hashes.sh $C/new/vbm-fluid cuda 12 3 > $R/hashes-wide.txt 2>&1; echo "wide hashes rc=$?"
cat $R/hashes-wide.txt
{ for t in test_solver_resolvers; do echo "== $t"; $X $C/tests/$t --gtest_brief=1 2>&1 | tail -30; done; } > $R/tests.log 2>&1
grep -E "^==|PASSED|FAILED" $R/tests.log
for s in smoke-plume fire-small smoke-open; do
  $X compute-sanitizer --tool memcheck --error-exitcode 3 $C/new/vbm-fluid --headless --render none --scene /tmp/$s-wide.scene \
    --frames 4 > $R/memcheck-$s.txt 2>&1
  echo "memcheck wide $s rc=$? $(grep -E 'ERROR SUMMARY' $R/memcheck-$s.txt)"; done
gzip $R/*.csv; tar -C /tmp -czf $OUT/run28a.tgz r28
else
wide assets/scenes/smoke-plume.scene /tmp/smoke-plume-wide.scene
for s in smoke-plume /tmp/smoke-plume-wide.scene; do n=$(basename $s .scene)
  $X $C/new/vbm-fluid --headless --scene $s --frames 240 --interop on --screenshot $OUT/$n-240.png \
    > $R/render-$n.txt 2>&1; echo "render $n rc=$? $(grep -E 'interop:' $R/render-$n.txt | tr -s ' ')"; done
wide docs/results/issue15/smoke-plume-1b.scene /tmp/plume1b-wide.scene
for s in docs/results/issue15/smoke-plume-1b.scene /tmp/plume1b-wide.scene; do n=$(basename $s .scene)
  ( while sleep 1; do nvidia-smi --query-gpu=memory.used --format=csv,noheader,nounits; done ) > $R/mem-$n.txt & w=$!
  $X $C/new/vbm-fluid --headless --render none --frames 4 --scene $s --timings $R/timings-$n.csv > $R/fluid-$n.log 2>&1
  echo "$n rc=$? peak MiB $(sort -n $R/mem-$n.txt | tail -1)"; kill $w
  grep -E "memory:|frame .*/4|step \||pressure CG \||advection \|" $R/fluid-$n.log; done
tar -C /tmp -czf $OUT/run28b.tgz r28
fi
