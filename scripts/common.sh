# SPDX-License-Identifier: Apache-2.0
# Shared by run.sh and test.sh: set up, then configure and build into build/.
# Usage: source scripts/common.sh; vbm_build [extra cmake args...]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
export PATH="/usr/local/cuda/bin:$PATH"
source "$root/scripts/progress.sh"

vbm_build() {
  "$root/scripts/setup.sh"
  local jobs
  jobs=$(nproc 2>/dev/null || echo 2)
  cmake -S "$root" -B "$root/build" -G Ninja -DCMAKE_BUILD_TYPE="${VBM_BUILD_TYPE:-Release}" "$@" >"$root/build.log" 2>&1 \
    || { cat "$root/build.log" >&2; echo "[build] cmake configure failed (log above, also in build.log)" >&2; exit 1; }
  grep -E "^-- vbm-fluid|WARNING" -A1 "$root/build.log" >&2 || true
  echo "[build] compiling (${jobs} jobs); CUDA files take a few minutes on a small machine" >&2
  cmake --build "$root/build" -j "$jobs" 2>&1 | vbm_progress build "$root/build.log" \
    || { tail -n 60 "$root/build.log" >&2; echo "[build] build failed (full log: build.log)" >&2; exit 1; }
  echo "[build] done" >&2
}
