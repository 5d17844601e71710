#!/bin/bash
# Issue 15, H200 run 27 (session 16, review): the channel loads of advection's bodies shared
# (loadChannels), the packed pair's value shared (pairValue). N = the working tree committed as
# the review mend. Checks: the 4.2M plume's fields after 300 frames, float and half storage, against
# run 25 (e70b80586edb6032, 81260b8c18e0e00d); every resolver on the half-storage variants against
# run 25's hashes-half.txt; the float scenes against run 18's; the GPU tests.
source docs/results/issue15/h200-setup.sh
X="timeout 280"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
R=/tmp/r27; mkdir -p $R
for v in float half; do
  $X $C/new/vbm-fluid --headless --render none --scene smoke-plume-4m --frames 300 --scalars $v \
    --export /tmp/$v.nvdb > $R/plume-$v.txt 2>&1; echo "plume $v rc=$? fields $(sha256sum /tmp/$v.nvdb | cut -c1-16)"; done
for s in smoke-plume fire-small fire smoke-open; do
  { cat assets/scenes/$s.scene; echo "scalar_storage half"; } > /tmp/$s-half.scene; done
SCENES="/tmp/smoke-plume-half.scene /tmp/fire-small-half.scene /tmp/fire-half.scene /tmp/smoke-open-half.scene" \
  ALL_RESOLVERS=1 $X scripts/fields-hashes.sh $C/new/vbm-fluid cuda 12 3 > $R/hashes-half.txt 2>&1; echo "half hashes rc=$?"
diff docs/results/issue15/run25/hashes-half.txt $R/hashes-half.txt && echo "half hashes: identical to run 25's"
SCENES="smoke-plume fire-small smoke-open" ALL_RESOLVERS=1 $X scripts/fields-hashes.sh $C/new/vbm-fluid cuda 12 3 \
  > $R/hashes-float.txt 2>&1; echo "float hashes rc=$?"
grep -F -x -f $R/hashes-float.txt docs/results/issue15/run25/hashes-new.txt docs/results/issue15/run25/hashes-new-fire-open.txt | wc -l
cat $R/hashes-float.txt
{ for t in test_half_gpu test_solver_resolvers; do echo "== $t"; $X $C/tests/$t --gtest_brief=1 2>&1 | tail -25; done; } > $R/tests.log 2>&1
grep -E "^==|PASSED|FAILED" $R/tests.log
tar -C /tmp -czf $OUT/run27.tgz r27
