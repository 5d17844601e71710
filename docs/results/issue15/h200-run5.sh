#!/bin/bash
# Issue 15, H200 run 5: T's 4.2M plume report again (run 3's did not come back: the 8-file
# limit), for its per-phase medians and its steps 101-300 window.
source docs/results/issue15/h200-setup.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
timeout 200 $C/new/vbm-bench --solver smoke-plume-4m --steps 300 2>/dev/null > $OUT/plume-T.md; echo "rc=$?"
grep -E "^\|" $OUT/plume-T.md | head -9; grep -E "window|substep|iterations" $OUT/plume-T.md
