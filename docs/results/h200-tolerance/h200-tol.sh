#!/bin/bash
# The 4.2M plume step at three CG tolerances (same binary, same run): time against divergence.
C=$PWD/.carry; gunzip $C/t/*.gz; chmod +x $C/t/vbm-bench
$C/t/vbm-bench --solver smoke-plume-4m --steps 30 > $OUT/tol1e-5.md 2>/dev/null
for t in 1e-4 1e-3; do $C/t/vbm-bench --solver $C/t/plume4m-tol$t.scene --steps 30 > $OUT/tol$t.md 2>/dev/null; done
for f in $OUT/tol*.md; do echo "$f: $(grep -E '\*\*step\*\*|iterations per step' $f | tr '\n' ' ')"; done
