#!/usr/bin/env bash
# Sets up what is missing, builds, and runs every test through ctest.
# GPU tests (names starting with Gpu) report themselves skipped where there is no CUDA GPU.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
werror=OFF
[ "${CI:-}" = "true" ] && werror=ON
vbm_build -DBUILD_TESTING=ON -DVBM_WARNINGS_AS_ERRORS=$werror
cd "$root/build"
ctest --output-on-failure -j "$(nproc 2>/dev/null || echo 2)" "$@"
