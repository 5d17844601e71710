#!/bin/bash
# Issue 15, H200 run 35, calls b and c (session 19), as they were sent after part a of
# h200-run35.sh ran out of time: b carried .carry (O = d1d7585 in old/, N = 1dc02c2 in new/,
# test_solver_resolvers and test_tap_table) and .gl (with vulkan-validationlayers); c carried
# .carry2 (test_half_gpu, test_adapt_gpu, test_render) onto the same warm machine.
source docs/results/issue15/h200-setup.sh
R=$OUT
if [ "${1:-b}" = b ]; then
  for t in test_solver_resolvers test_tap_table; do echo "== $t"
    timeout 100 $C/tests/$t --gtest_brief=1 2>&1 | grep -E "PASSED|FAILED|SKIPPED|ran\."; done
  for v in N-table:new O-table:old N-default:new; do n=${v%%:*}; b=${v##*:}; t=; [ ${n#*-} = table ] && t="--tap-table on"
    timeout 100 $C/$b/vbm-fluid --headless --render none --frames 4 --scene docs/results/issue15/smoke-plume-1b.scene \
      --timings $R/1b-$n.csv $t > $R/1b-$n.txt 2>&1
    echo "1b $n rc=$? $(grep -E 'pressure CG \||step \|' $R/1b-$n.txt | tr -s ' ' | tr '\n' ' ')"; done
  for s in smoke-plume smoke-open; do
    timeout 60 compute-sanitizer --tool memcheck --error-exitcode 3 $C/new/vbm-fluid --headless --render none --scene $s \
      --frames 4 --tap-table on > $R/memcheck-$s.txt 2>&1; echo "memcheck $s table rc=$? $(grep 'ERROR SUMMARY' $R/memcheck-$s.txt)"; done
else
  for f in .carry2/tests/*.gz; do gunzip -c $f > $C/tests/$(basename $f .gz); done; chmod +x $C/tests/*
  mkdir -p /work/main/build/bin; ln -sf $C/new/vbm-fluid /work/main/build/bin/vbm-fluid
  for t in test_half_gpu test_adapt_gpu; do echo "== $t"
    timeout 60 $C/tests/$t --gtest_brief=1 2>&1 | grep -E "PASSED|FAILED|SKIPPED|ran\."; done
  echo "== test_render"; timeout 60 $C/tests/test_render 2>&1 | grep -E "^\[ *(OK|SKIPPED|FAILED|PASSED) |ran\.|Failure|skipped"
fi
