#!/bin/bash
# Issue 14's H200 run: the GPU render tests, the look tests on the NVIDIA driver, fire and
# MacCormack resolver identity on the GPU, the 1920x1080 budget of the 4.2M plume with lighting,
# and late frames of every built-in scene for the README. Run from the repo root with .carry and
# .gl carried (docs/results/restructure/h200-setup.sh unpacks them).
source docs/results/restructure/h200-setup.sh
for t in test_render test_render_look test_solver_resolvers; do ln -sf $C/new/$t build/bin/$t; done
B=build/bin
mkdir -p $OUT/pics $OUT/logs
L=$OUT/logs
nvidia-smi --query-gpu=name,driver_version --format=csv > $L/gpu.txt
timeout 120 $B/test_render --gtest_filter='GpuRender*' > $L/test_render_gpu.log 2>&1; echo "test_render GpuRender rc=$?"
VBM_VULKAN_VALIDATION=1 timeout 120 $B/test_render_look > $L/test_render_look.log 2>&1; echo "test_render_look rc=$?"
timeout 150 $B/test_solver_resolvers --gtest_filter='GpuSolver.Bitwise*:SolverResolvers.Fire*' > $L/test_solver_resolvers.log 2>&1; echo "resolvers rc=$?"
# the budget: steps 101-300 of the 4.2M plume at 1920x1080, lighting on (the default look)
timeout 120 $B/vbm-fluid --headless --frames 300 --scene smoke-plume-4m --size 1920x1080 --interop on \
  --timings $L/plume4m-1080p.csv --screenshot $OUT/pics/smoke-plume-4m-1080p.png > $L/plume4m-1080p.log 2>&1; echo "1080p rc=$?"
timeout 120 $B/vbm-fluid --headless --frames 300 --scene smoke-plume-4m --size 1920x1080 --interop on --light-cells 0 \
  --timings $L/plume4m-1080p-unlit.csv > $L/plume4m-1080p-unlit.log 2>&1; echo "1080p unlit rc=$?"
# late frames of every built-in scene
for sf in heat-shell:2000 heat-block:300 smoke-plume:500 smoke-plume-4m:400 smoke-open:400 smoke-open-4m:300 fire:400 fire-small:400; do
  s=${sf%%:*}; f=${sf##*:}
  timeout 280 $B/vbm-fluid --headless --frames $f --scene $s --size 960x540 --screenshot $OUT/pics/$s-$f.png > $L/pic-$s.log 2>&1
  echo "$s $f rc=$?"
done
tail -n 12 $L/plume4m-1080p.log
cd $OUT && tar czf logs.tgz logs && tar cf pics.tar pics && rm -rf logs pics
