#!/bin/bash
# Issue 15, H200 run 25 (session 16): opt-in half storage of density and temperature (scene
# `scalar_storage half`, `--scalars half`: one 32-bit element of two halves per voxel).
# O = vbm-fluid at e058004 (main before), N = the working tree with float storage (the default),
# H = the same binary with --scalars half.
# Part a: the 4.2M plume O N H O N H (medians over frames 101-300, fields hashed after 300: O and N
# must match); fields-hashes.sh of N (every resolver) against runs 18 and 19; every resolver in
# turn on half-storage variants of the plume, fire and the open domain (identical within each).
# Part b: the GPU tests (half conversions exhaustively, the 4.2M plume half vs float, resolver
# identity with half storage) and memcheck with half storage; the fire look rendered through the
# shared CUDA-Vulkan path with half storage; the 1B plume, N then H (4 steps, peak memory).
source docs/results/issue15/h200-setup.sh
X="timeout 280"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
R=/tmp/r25; mkdir -p $R
part=${1:-a}
run() { # NAME BINARY ARGS...: the 4.2M plume, 300 frames, timings and fields
  local name=$1 bin=$2; shift 2
  $X $bin --headless --render none --scene smoke-plume-4m --frames 300 --timings $R/$name.csv \
    --export /tmp/$name.nvdb "$@" > $R/$name.txt 2>&1
  echo "$name rc=$? fields $(sha256sum /tmp/$name.nvdb | cut -c1-16) $(grep -E 'memory:' $R/$name.txt)"
}
if [ "$part" = a ]; then
for i in 1 2; do
  run old-$i $C/old/vbm-fluid; run new-$i $C/new/vbm-fluid; run half-$i $C/new/vbm-fluid --scalars half; done
python3 docs/results/issue15/window-medians.py 101 300 $R/old-1.csv $R/new-1.csv $R/half-1.csv $R/old-2.csv \
  $R/new-2.csv $R/half-2.csv | sed "s|$R/||g" | tee $R/windows.md
ALL_RESOLVERS=1 $X scripts/fields-hashes.sh $C/new/vbm-fluid cuda 12 3 > $R/hashes-new.txt 2>&1; echo "hashes rc=$?"
diff docs/results/issue15/run18/hashes-new.txt $R/hashes-new.txt && echo "fields hashes: identical to run 18's"
SCENES="fire-small fire smoke-open" ALL_RESOLVERS=1 $X scripts/fields-hashes.sh $C/new/vbm-fluid cuda 12 3 \
  > $R/hashes-new-fire-open.txt 2>&1; echo "hashes rc=$?"
diff docs/results/issue15/run19/hashes-old.txt $R/hashes-new-fire-open.txt && echo "fields hashes (fire, open): identical to run 19's"
for s in smoke-plume fire-small fire smoke-open; do
  { cat assets/scenes/$s.scene; echo "scalar_storage half"; } > /tmp/$s-half.scene; done
SCENES="/tmp/smoke-plume-half.scene /tmp/fire-small-half.scene /tmp/fire-half.scene /tmp/smoke-open-half.scene" \
  ALL_RESOLVERS=1 $X scripts/fields-hashes.sh $C/new/vbm-fluid cuda 12 3 > $R/hashes-half.txt 2>&1; echo "half hashes rc=$?"
cat $R/hashes-half.txt
gzip $R/*.csv; tar -C /tmp -czf $OUT/run25a.tgz r25
else
{ for t in test_half_gpu test_solver_resolvers test_adapt_gpu; do echo "== $t"; $X $C/tests/$t --gtest_brief=1 2>&1 | tail -40; done; } > $R/tests.log 2>&1
grep -E "^==|PASSED|FAILED|^step" $R/tests.log
for s in smoke-plume smoke-open fire-small; do
  $X compute-sanitizer --tool memcheck --error-exitcode 3 $C/new/vbm-fluid --headless --render none --scene $s \
    --frames 4 --scalars half > $R/memcheck-$s.txt 2>&1
  echo "memcheck half $s rc=$? $(grep -E 'ERROR SUMMARY' $R/memcheck-$s.txt)"; done
for v in float half; do
  $X $C/new/vbm-fluid --headless --scene fire --frames 60 --interop on --scalars $v --screenshot $OUT/fire-$v.png \
    > $R/fire-$v.txt 2>&1; echo "fire render $v rc=$? $(grep -E 'interop:|memory:' $R/fire-$v.txt | tr -s ' ')"; done
[ "${SKIP_1B:-0}" = 1 ] || for v in float half; do
  ( while sleep 1; do nvidia-smi --query-gpu=memory.used --format=csv,noheader,nounits; done ) > $R/mem-1b-$v.txt & w=$!
  /usr/bin/time -v $X $C/new/vbm-fluid --headless --render none --frames 4 --scalars $v \
    --scene docs/results/issue15/smoke-plume-1b.scene --timings $R/timings-1b-$v.csv > $R/fluid-1b-$v.log 2>&1
  echo "1b $v rc=$? peak MiB $(sort -n $R/mem-1b-$v.txt | tail -1)"; kill $w; grep -E "memory:|frame .*/4|step \||pressure CG \||advection \||Elapsed" $R/fluid-1b-$v.log; done
tar -C /tmp -czf $OUT/run25b.tgz r25
fi
