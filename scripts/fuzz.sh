#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The libFuzzer targets of tests/fuzz: builds them into build-fuzz/ or VBM_FUZZ_BUILD (clang, ASan+UBSan,
# VBM_CUDA=OFF), replays the saved findings of tests/fuzz/findings/<target>/, then fuzzes each
# target for a bounded time from its seeds (tests/fuzz/corpus/<target>/; *.gz are unpacked).
# Fails on the first crash, sanitizer report, timeout or out-of-memory, and prints the input
# (path, size, first bytes, base64 when small). docs/testing.md has the details.
# Usage: scripts/fuzz.sh [TARGET...]        (default: fuzz_scene fuzz_grid_file fuzz_mesh)
# Environment:
#   VBM_FUZZ_SECONDS  the most seconds of fuzzing per target (default 120); 0 skips this whole
#                     step (build, replay and fuzzing): the one switch for running CI before
#                     known crashes are fixed (docs/testing.md)
#   VBM_FUZZ_RUNS     executions per target (default: fuzz_scene 100000, fuzz_grid_file 5000,
#                     fuzz_mesh 2000, about a minute each here)
#   VBM_FUZZ_SEED     libFuzzer's seed (default 1). With a fixed seed and run count, from the
#                     checked-in seeds, CI repeats exactly the run a developer made: a gate
#                     that does not turn red by chance. Exploring is a longer run with another
#                     seed (docs/testing.md).
#   VBM_FUZZ_ARGS     extra libFuzzer flags, e.g. "-fork=2 -ignore_crashes=1" to collect many crashes
#   VBM_FUZZ_MESH_MODELS=1  fuzz_mesh also reads the small models of assimp-testmodels
#                     (/usr/share/assimp/models, read only) as seeds: for exploring; CI leaves it unset
#   VBM_FUZZ_BUILD    the build folder (default build-fuzz/ in the checkout; one configured
#                     with VBM_FUZZ=ON, as scripts/sanitize.sh's clang build, is reused as is)
#   VBM_JOBS          build jobs (default nproc)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
source "$root/scripts/sanitizer-env.sh"
source "$root/scripts/progress.sh"
say() { echo "[fuzz] $*" >&2; }
die() { echo "[fuzz] error: $*" >&2; exit 1; }

seconds=${VBM_FUZZ_SECONDS:-120}
fuzzSeed=${VBM_FUZZ_SEED:-1}
[[ "$fuzzSeed" =~ ^[0-9]+$ ]] || die "VBM_FUZZ_SEED must be a whole number, not '$fuzzSeed'"
[[ "$seconds" =~ ^[0-9]+$ ]] || die "VBM_FUZZ_SECONDS must be a whole number of seconds, not '$seconds'"
if [ "$seconds" = 0 ]; then
  say "skipped: VBM_FUZZ_SECONDS=0"
  exit 0
fi
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(fuzz_scene fuzz_grid_file fuzz_mesh)
build=${VBM_FUZZ_BUILD:-$root/build-fuzz}
log="$build/build.log"
jobs=${VBM_JOBS:-$(nproc 2>/dev/null || echo 2)}
command -v clang++ >/dev/null || die "no clang++ (scripts/setup.sh installs clang)"
mkdir -p "$build"

if grep -q "^VBM_FUZZ:BOOL=ON" "$build/CMakeCache.txt" 2>/dev/null; then
  say "reusing the sanitized build in $build (configured with VBM_FUZZ=ON)"
else
  say "configuring $build (clang++, libFuzzer, -fsanitize=address,undefined, VBM_CUDA=OFF)"
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DVBM_CUDA=OFF -DVBM_FUZZ=ON -DBUILD_TESTING=OFF >"$log" 2>&1 \
    || { cat "$log" >&2; die "cmake configure failed (log above, also in $log)"; }
fi
say "compiling ${targets[*]} ($jobs jobs)"
cmake --build "$build" -j "$jobs" --target "${targets[@]}" 2>&1 | vbm_progress fuzz "$log" \
  || { tail -n 60 "$log" >&2; die "build failed (full log: $log)"; }

vbm_sanitizer_env "$root"

# Prints what libFuzzer saved, so the log alone is enough to reproduce it.
show_artifacts() {
  local dir="$1" f
  for f in "$dir"/*; do
    [ -f "$f" ] || continue
    echo "[fuzz] input: $f ($(stat -c %s "$f") bytes); first bytes:"
    od -A x -t x1z -v "$f" | head -n 8
    if [ "$(stat -c %s "$f")" -le 65536 ]; then echo "[fuzz] base64: $(base64 -w0 "$f")"; fi
  done
}

# Per-target limits: the scene parser builds grids (a 4M-voxel built-in scene takes seconds
# under ASan); .nvdb seeds are ~300 KB (NanoVDB's upper node table), the two-grid one 600 KB;
# mesh seeds are 1 KB, the assimp models read with VBM_FUZZ_MESH_MODELS up to 64 KB.
limits() {
  case "$1" in
    fuzz_scene) echo "-timeout=30 -max_len=4096" ;;
    fuzz_grid_file) echo "-timeout=20 -max_len=1048576" ;;
    fuzz_mesh) echo "-timeout=20 -max_len=65536" ;;
    *) die "unknown fuzz target '$1' (fuzz_scene, fuzz_grid_file, fuzz_mesh)" ;;
  esac
}

failed=()
for t in "${targets[@]}"; do
  bin="$build/bin/$t"
  read -r -a lim <<<"$(limits "$t")"
  common=(-rss_limit_mb=4096 "${lim[@]}")
  # Seeds: the checked-in corpus, gzipped files unpacked; the working corpus grows in the build folder.
  seeds="$build/fuzz/$t/seeds" work="$build/fuzz/$t/corpus" art="$build/fuzz/$t/artifacts"
  rm -rf "$seeds" "$art" && mkdir -p "$seeds" "$work" "$art"
  for f in "$root/tests/fuzz/corpus/$t"/*; do
    [ -f "$f" ] || continue
    case "$f" in
      *.gz) gunzip -c "$f" >"$seeds/$(basename "${f%.gz}")" ;;
      *) cp "$f" "$seeds/" ;;
    esac
  done

  # Saved findings (regression inputs; *.gz unpacked): each must now pass.
  replay="$build/fuzz/$t/findings"
  rm -rf "$replay" && mkdir -p "$replay"
  for f in "$root/tests/fuzz/findings/$t"/*; do
    [ -f "$f" ] || continue
    case "$f" in
      *.gz) gunzip -c "$f" >"$replay/$(basename "${f%.gz}")" ;;
      *) cp "$f" "$replay/" ;;
    esac
  done
  if [ -n "$(ls "$replay")" ]; then
    say "$t: replaying $(ls "$replay" | wc -l) saved finding(s) of tests/fuzz/findings/$t/"
    for f in "$replay"/*; do
      if ! "$bin" "${common[@]}" "$f" >"$build/fuzz/$t/replay.log" 2>&1; then
        tail -n 60 "$build/fuzz/$t/replay.log"
        say "FAILED: $t still fails on tests/fuzz/findings/$t/$(basename "$f")* (output above)"
        failed+=("$t: $(basename "$f")")
      fi
    done
  fi

  case "$t" in
    fuzz_scene) runs=${VBM_FUZZ_RUNS:-100000} ;;
    fuzz_mesh) runs=${VBM_FUZZ_RUNS:-2000} ;;
    *) runs=${VBM_FUZZ_RUNS:-5000} ;;
  esac
  # Read-only seed folders beside ours: libFuzzer adds new inputs to the first folder only.
  models=()
  if [ "$t" = fuzz_mesh ] && [ "${VBM_FUZZ_MESH_MODELS:-0}" = 1 ]; then
    for d in OBJ PLY STL glTF2 Collada OFF FBX; do
      if [ -d "/usr/share/assimp/models/$d" ]; then models+=("/usr/share/assimp/models/$d"); fi
    done
    [ ${#models[@]} -gt 0 ] || die "VBM_FUZZ_MESH_MODELS=1: no /usr/share/assimp/models (scripts/setup.sh installs assimp-testmodels)"
  fi
  say "$t: fuzzing $runs runs (seed $fuzzSeed, at most ${seconds}s) from $(ls "$seeds" | wc -l) seeds (+ $(ls "$work" | wc -l) in ${build#"$root"/}/fuzz/$t/corpus${models:+, + ${#models[@]} assimp model folders})"
  # shellcheck disable=SC2086 # VBM_FUZZ_ARGS is a list of flags
  if "$bin" "${common[@]}" -seed="$fuzzSeed" -runs="$runs" -max_total_time="$seconds" -print_final_stats=1 -artifact_prefix="$art/" \
    ${VBM_FUZZ_ARGS:-} "$work" "$seeds" "${models[@]}" >"$build/fuzz/$t/fuzz.log" 2>&1; then
    say "$t: no finding ($(grep -oE 'stat::number_of_executed_units: *[0-9]+' "$build/fuzz/$t/fuzz.log" | grep -oE '[0-9]+$' | tail -n1 || echo '?') executions)"
  else
    tail -n 80 "$build/fuzz/$t/fuzz.log"
    show_artifacts "$art"
    say "FAILED: $t found a crash, sanitizer report, timeout or out-of-memory (output above; log ${build#"$root"/}/fuzz/$t/fuzz.log)"
    failed+=("$t: fuzzing")
  fi
done

if [ ${#failed[@]} -gt 0 ]; then
  die "${#failed[@]} failure(s): ${failed[*]}; save new inputs under tests/fuzz/findings/<target>/ (docs/testing.md)"
fi
say "all targets clean"
