#!/bin/bash
# Run 1 (session 4): the advection kernel's variants, vbm-bench --solver smoke-plume-4m --steps 100
# each, in turns, two rounds. All built here from the same working tree (Release, sm_90):
#   A: as HEAD d9528e2 (software popcount in NanoVDB's leaf getValue; box tap loop as before)
#   B: A + NANOVDB_USE_INTRINSICS (NanoVDB's documented switch: hardware popcount)
#   C: B + the cached box resolver's 27-tap loop fully unrolled
#   D: C + __launch_bounds__ asking 10 resident blocks of 128 for the advection kernel
#   F: B + the cached box resolver reading each x-slice's mask words once (4 per slice)
#   G: F + 8 resident blocks
V="A B C D F G"
for v in $V; do gunzip .carry/$v/vbm-bench.gz; chmod +x .carry/$v/vbm-bench; done
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader; ls /usr/local/cuda/bin 2>/dev/null | tr '\n' ' '; echo
for r in 1 2; do for v in $V; do
  .carry/$v/vbm-bench --solver smoke-plume-4m --steps 100 2>/dev/null > /tmp/$v-$r.md
  { echo "## variant $v, round $r"; echo; cat /tmp/$v-$r.md; echo; } >> $OUT/bench-variants.md
  echo "$v-$r: $(grep -E '\*\*step\*\*|^\| advection|pressure CG \||substeps|identical' /tmp/$v-$r.md | tr '\n' ' ')"
done; done
