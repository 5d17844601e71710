#!/bin/bash
# Builds and runs half-drift.cpp against build/'s solver libraries (run from the project root
# after building): the output of session 16 is run25/half-drift-cpu.log.
set -euo pipefail
cd build
c++ -DNANOVDB_USE_INTRINSICS -DVBM_HAVE_CUDA=1 -I../solver -I../solver/api -Iinclude \
  -isystem ../.deps/nanovdb/include -isystem /usr/local/cuda/include -O3 -DNDEBUG -march=x86-64-v3 -std=gnu++20 \
  ../docs/results/issue15/half-drift.cpp -o /tmp/half-drift -L/usr/local/cuda/targets/x86_64-linux/lib \
  solver/libvbm_solver.a solver/libvbm_solver_cuda.a /usr/local/cuda/lib/libcudart_static.a -ldl -lrt -lpthread
/tmp/half-drift "${1:-300}"
