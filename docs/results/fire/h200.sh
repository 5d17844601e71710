#!/bin/bash
# Issue 14 (fire), H200 run 1: the GPU solver tests with fire (resolver identity on the GPU with
# fuel, MacCormack on), and the built-in fire scene on the GPU and on the CPU backend of that
# machine: 1,000 steps each, finite, the same fields within tolerance; a picture at frame 1000.
gunzip -f .carry/lib/*.gz 2>/dev/null
source docs/results/restructure/h200-setup.sh
N=$C/new
timeout 200 $N/test_solver_resolvers --gtest_brief=1 --gtest_filter='Gpu*' 2>&1 | grep -E "tests from|PASSED|FAILED|Failure"
for b in cuda cpu; do
  timeout 150 $N/vbm-fluid --headless --scene fire --backend $b --frames 1000 --size 640x480 \
    --screenshot $OUT/fire-$b.png --export $OUT/fire-$b.nvdb > $OUT/fire-$b.txt 2>&1
  echo "fire $b rc=$? $(grep -E '\| step' $OUT/fire-$b.txt)"
done
ls -la $OUT
