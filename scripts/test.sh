#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Sets up what is missing, builds, and runs the tests through ctest (docs/testing.md).
#   scripts/test.sh           everything, as CI runs it: the normal build and every test; then
#                             one sanitized build (clang, ASan+UBSan, libFuzzer coverage) that
#                             runs the quick tests (scripts/sanitize.sh) and the fuzz targets
#                             (scripts/fuzz.sh). The normal build's result comes first.
#   scripts/test.sh --quick   the normal build and the tests labelled quick (a few minutes).
# Other arguments go to the first ctest (e.g. -R Smoke, -L slow). GPU tests (label gpu, names
# with Gpu) say they are skipped where there is no CUDA GPU. Environment: VBM_SANITIZE=0 leaves
# out the sanitized build's tests, VBM_FUZZ_SECONDS=0 the fuzz runs.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
quick=0
args=()
for a in "$@"; do
  case "$a" in
    --quick) quick=1 ;;
    -h | --help) sed -n 3,11p "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) args+=("$a") ;;
  esac
done
werror=OFF
[ "${CI:-}" = "true" ] && werror=ON
vbm_build -DBUILD_TESTING=ON -DVBM_WARNINGS_AS_ERRORS=$werror
jobs=$(nproc 2>/dev/null || echo 2)
if [ "$quick" = 1 ]; then
  (cd "$root/build" && ctest --output-on-failure -j "$jobs" -L quick ${args[@]+"${args[@]}"})
  echo "[test] normal build: the quick tests passed (scripts/test.sh runs them all)" >&2
  exit 0
fi
(cd "$root/build" && ctest --output-on-failure -j "$jobs" ${args[@]+"${args[@]}"})
echo "[test] normal build: all tests passed" >&2

# The sanitized build serves both the sanitizer's tests and the fuzz targets.
export VBM_FUZZ_BUILD="$root/build-asan"
if [ "${VBM_SANITIZE:-1}" = 0 ]; then
  echo "[sanitize] tests skipped: VBM_SANITIZE=0" >&2
else
  "$root/scripts/sanitize.sh"
fi
"$root/scripts/fuzz.sh"
