#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Sets up what is missing, builds, and runs every test through ctest; then the sanitizer build
# and its tests (scripts/sanitize.sh), then the fuzz targets for a bounded time
# (scripts/fuzz.sh). The normal build comes first, so its result is known in minutes.
# GPU tests (names starting with Gpu) report themselves skipped where there is no CUDA GPU.
# Arguments go to the first ctest. Environment: VBM_SANITIZE=0 skips the sanitizer step,
# VBM_FUZZ_SECONDS=0 skips the fuzz step (default 60 s per target); docs/testing.md.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
werror=OFF
[ "${CI:-}" = "true" ] && werror=ON
vbm_build -DBUILD_TESTING=ON -DVBM_WARNINGS_AS_ERRORS=$werror
(cd "$root/build" && ctest --output-on-failure -j "$(nproc 2>/dev/null || echo 2)" "$@")
echo "[test] normal build: all tests passed" >&2

if [ "${VBM_SANITIZE:-1}" = 0 ]; then
  echo "[sanitize] skipped: VBM_SANITIZE=0" >&2
else
  "$root/scripts/sanitize.sh"
fi
"$root/scripts/fuzz.sh"
