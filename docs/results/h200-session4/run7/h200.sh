#!/bin/bash
# Run 7 (session 4): e815f28 (O) against S = e815f28 + the in-word select of the decode made
# branch-free and shared by host and device (it was __fns on the 32-bit half a branch chose).
# GPU tests on S; the resolver comparison of S (full) and of O (small and thin, C = 1, for the
# decode table in the same run); the plume, 300 steps, O and S in turns.
O=$PWD/.carry/e815f28; S=$PWD/.carry/sel; gunzip -f $O/*.gz $S/*.gz; chmod +x $O/* $S/*
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
  $S/test_solver_resolvers --gtest_brief=1 --gtest_filter='Gpu*'
  $S/test_vbm_gpu --gtest_brief=1
  $S/vbm-check --gpu; echo "vbm-check rc=$?"; } > $OUT/tests.log 2>&1
grep -E "PASSED|FAILED|passed|failed|rc=" $OUT/tests.log
$O/vbm-bench --grid small --grid thin --channels 1 --rounds 30 > $OUT/bench-O-decode.md 2>/dev/null; echo "O rc=$?"
$S/vbm-bench --json $OUT/bench-h200.json > $OUT/bench-h200.md 2>/dev/null; echo "S rc=$?"
grep -A7 "decode alone" $OUT/bench-O-decode.md | grep "^| [0-9]"; echo; grep -A7 "decode alone" $OUT/bench-h200.md | grep "^| [0-9]"
for v in O S; do eval B=\$$v; $B/vbm-bench --solver smoke-plume-4m --steps 300 2>/dev/null > /tmp/$v.md
  { echo "## $v"; echo; cat /tmp/$v.md; echo; } >> $OUT/bench-4m-300.md
  echo "$v: $(grep -E '\*\*step\*\*|pressure CG \||window|substeps|identical' /tmp/$v.md | tr '\n' ' ')"; done
