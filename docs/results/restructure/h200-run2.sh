#!/bin/bash
# Restructure, H200 run 2: the old (d19f962) and new binaries interleaved in one run, same
# flags (Release, NDEBUG, NANOVDB_USE_INTRINSICS, sm_90): the 4.2M plume's steps (300, the
# steady state), then the resolver comparison on the small and thin shells (C = 1).
source docs/results/restructure/h200-setup.sh
for i in 1 2; do
  for v in old new; do
    $C/$v/vbm-bench --solver smoke-plume-4m --steps 300 > $OUT/solver-$v-$i.md 2>/dev/null; echo "solver $v $i rc=$?"
    grep -E '\*\*step\*\*|window|identical' $OUT/solver-$v-$i.md
  done
done
for i in 1 2; do
  for v in old new; do
    $C/$v/vbm-bench --grid small --grid thin --channels 1 --no-decode > $OUT/grid-$v-$i.md 2>/dev/null; echo "grid $v $i rc=$?"
    grep -E "^\| computeCrossStencilCached|^\| forEachBoxStencilCached|identical to their" $OUT/grid-$v-$i.md
  done
done
