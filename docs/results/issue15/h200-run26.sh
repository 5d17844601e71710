#!/bin/bash
# Issue 15, H200 run 26 (session 16): the largest generated plume (a scene's domain may hold at
# most 2^31 voxels: a ball of radius 870, 2.76G, was refused with exit 2 in the first try), a ball
# of radius 795, 2.09G voxels, 4 steps with --scalars half; peak of nvidia-smi's memory.used
# sampled every second. N = the binary of run 25 (ceb7b4e). The run read this scene under its first
# name, smoke-plume-2p7b.scene (its numbers edited to these before the run), hence the names in run26/.
source docs/results/issue15/h200-setup.sh
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader; date -u
R=/tmp/r26; mkdir -p $R
( while sleep 1; do nvidia-smi --query-gpu=memory.used --format=csv,noheader,nounits; done ) > $R/mem-2p1b-half.txt & w=$!
/usr/bin/time -v timeout 560 $C/new/vbm-fluid --headless --render none --frames 4 --scalars half \
  --scene docs/results/issue15/smoke-plume-2p1b.scene --timings $R/timings-2p1b-half.csv > $R/fluid-2p1b-half.log 2>&1
echo "2.1b half rc=$? peak MiB $(sort -n $R/mem-2p1b-half.txt | tail -1)"; kill $w
grep -E "scene:|memory:|frame .*/4|step \||pressure CG \||advection \||Elapsed|Maximum resident|vbm-fluid:" $R/fluid-2p1b-half.log
tar -C /tmp -czf $OUT/run26.tgz r26
