#!/bin/bash
# Run 14 (session 3): the advection body's weights. A = commit 4b9c039 (r11 binary); B1 = taps
# counted, wz[c] indexed; B2 = taps counted, wz picked by selects. 100 steps (later steps have
# 2-3 substeps), in turns.
A=$PWD/.carry/r11; gunzip $A/*.gz 2>/dev/null; for v in b1 b2; do gunzip .carry/$v/*.gz; chmod +x .carry/$v/vbm-bench; done; chmod +x $A/vbm-bench
b(){ name=$1; bin=$2; $bin --solver smoke-plume-4m --steps 100 2>/dev/null > $OUT/$name.md
  echo "$name: $(grep -E '\*\*step\*\*|advection \||iterations per step' $OUT/$name.md | tr '\n' ' ')"; }
for r in 1 2; do b A-$r $A/vbm-bench; b B1-$r .carry/b1/vbm-bench; b B2-$r .carry/b2/vbm-bench; done
