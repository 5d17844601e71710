#!/bin/bash
# Run 13 (session 3): where the advection kernel's time goes (ncu sections on one launch of a
# later step, default resolvers), commit 4b9c039's code (the r11 binaries).
B=$PWD/.carry/r11; gunzip $B/*.gz 2>/dev/null; chmod +x $B/vbm-bench
timeout 200 ncu --clock-control none --kernel-name-base demangled -k regex:"Resolver\)4, vbm::solver::Advect" --launch-skip 40 --launch-count 1 --section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats --section Occupancy --section LaunchStats --section SchedulerStats $B/vbm-bench --solver smoke-plume-4m --steps 30 > $OUT/ncu-advect.txt 2>&1; echo ncu rc $?
grep -E "Duration|Throughput|Hit Rate|Achieved Occupancy|Registers|Stall|Warp Cycles|Eligible|Issued|Block Limit|L1/TEX|L2|DRAM" $OUT/ncu-advect.txt | head -60
