#!/bin/bash
# Run 2 (session 4): where variant F's advection kernel spends its instructions: its SASS, and
# ncu's source counters on one steady-state launch (step ~50 of 100); the same for the fine
# level's A d pass of the pressure CG (computeCrossStencilCached).
gunzip .carry/F/vbm-bench.gz; chmod +x .carry/F/vbm-bench; B=.carry/F/vbm-bench
K=_ZN3vbm6solver19solverStencilKernelILi7ELNS_8ResolverE4ENS0_6AdvectEEEvNS_7VbmViewET1_PKd
cuobjdump -sass -fun $K $B > $OUT/advect.sass 2>&1; wc -l $OUT/advect.sass
prof(){ name=$1; re=$2; skip=$3
  ncu --clock-control none --kernel-name-base demangled -k "regex:$re" --launch-skip $skip --launch-count 1 \
      --section SourceCounters --section WarpStateStats --section InstructionStats --section SpeedOfLight \
      --section Occupancy --section LaunchStats -o /tmp/$name $B --solver smoke-plume-4m --steps 60 > /tmp/$name.log 2>&1
  tail -2 /tmp/$name.log
  ncu --import /tmp/$name.ncu-rep --page details > $OUT/$name-details.txt 2>&1
  ncu --import /tmp/$name.ncu-rep --page source --csv --print-source sass > $OUT/$name-source.csv 2>&1
  wc -c $OUT/$name-details.txt $OUT/$name-source.csv; }
prof advect 'Resolver\)4, vbm::solver::Advect' 250
prof cgAd 'Resolver\)6, vbm::solver::DirectionLaplacianDot' 200
