#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Checks the installed vbm-fluid package the way a user meets it: installs BUILD_DIR into a
# fresh temporary prefix, builds examples/stencil-consumer against that prefix only and runs
# it (and examples/cuda-stencil-consumer where BUILD_DIR has CUDA; run if a GPU answers),
# compiles every installed vbm/*.h on its own through vbm::vbm, and checks that a wrong
# NANOVDB_ROOT gives the package's "set NANOVDB_ROOT" message. Cleans up after itself.
# ctest runs it as InstalledPackage.ExampleConsumer (tests/CMakeLists.txt).
#
# Usage: scripts/check-installed-package.sh BUILD_DIR   (a configured and built vbm-fluid)
# Environment: CMAKE (default cmake), CMAKE_BUILD_PARALLEL_LEVEL (default 1),
#   VBM_KEEP_CHECK_DIR=1 keeps the temporary folder for a look.
# Exit 0 if all passed, else 1 with a one-line reason on stderr (logs are printed above it).
set -euo pipefail

say() { echo "[installed-package] $*"; }
fail() {
  echo "[installed-package] FAILED: $*" >&2
  exit 1
}
# Runs a step quietly into a log; on failure prints the log's tail, then the reason.
step() {
  local log="$1" why="$2"
  shift 2
  "$@" >"$log" 2>&1 || {
    tail -n 40 "$log" >&2
    fail "$why (log above)"
  }
}

[ $# -eq 1 ] || {
  echo "usage: $0 BUILD_DIR" >&2
  exit 2
}
[ -f "$1/CMakeCache.txt" ] || fail "$1 is not a configured build folder (no CMakeCache.txt)"
build=$(cd "$1" && pwd)
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cmake_bin=${CMAKE:-cmake}
jobs=${CMAKE_BUILD_PARALLEL_LEVEL:-1}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/vbm-installed-package.XXXXXX")
if [ "${VBM_KEEP_CHECK_DIR:-0}" = 1 ]; then
  trap 'echo "[installed-package] kept $tmp"' EXIT
else
  trap 'rm -rf "$tmp"' EXIT
fi
prefix="$tmp/prefix"

# The consumer uses the compiler vbm-fluid was built with, and the same generator if it is Ninja.
cxx=$(sed -n 's/^CMAKE_CXX_COMPILER:[A-Z]*=//p' "$build/CMakeCache.txt")
gen=()
if grep -q '^CMAKE_GENERATOR:INTERNAL=Ninja$' "$build/CMakeCache.txt"; then gen=(-G Ninja); fi
# Only the prefix: no package registries, and the package's recorded NanoVDB (not the caller's
# NANOVDB_ROOT): that default is what an install is checked for.
unset NANOVDB_ROOT
consumer_args=("${gen[@]}" -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$prefix"
  -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF -DCMAKE_FIND_USE_SYSTEM_PACKAGE_REGISTRY=OFF
  -DCMAKE_EXPORT_COMPILE_COMMANDS=ON "-DCMAKE_CXX_FLAGS=-Wall -Wextra -Werror")
[ -n "$cxx" ] && consumer_args+=(-DCMAKE_CXX_COMPILER="$cxx")

say "installing $build into $prefix"
step "$tmp/install.log" "cmake --install $build failed" "$cmake_bin" --install "$build" --prefix "$prefix"
config="$prefix/share/cmake/vbm-fluid/vbm-fluidConfig.cmake"
[ -f "$config" ] || fail "the install has no $config"
[ -f "$prefix/include/vbm/BlockSkeleton.h" ] || fail "the install has no include/vbm/BlockSkeleton.h"
# The headers must be copies: a link back into solver/ would hide a missing install rule.
links=$(find "$prefix/include" -type l | head -n 3)
[ -z "$links" ] || fail "the install holds links instead of headers: $links"

# Configures and builds examples/NAME (extra cmake arguments after NAME) in $tmp/NAME-build.
# The example is copied out of the source tree first, so no relative path can reach solver/;
# then the package must have come from the prefix, and no compile line may name solver/ or
# the build tree's include root.
build_example() {
  local name="$1"
  shift
  cp -R "$root/examples/$name" "$tmp/$name"
  say "building examples/$name against the prefix only"
  step "$tmp/$name-configure.log" "configuring examples/$name against the install failed" \
    "$cmake_bin" -S "$tmp/$name" -B "$tmp/$name-build" "${consumer_args[@]}" "$@"
  local found
  found=$(sed -n 's/^vbm-fluid_DIR:PATH=//p' "$tmp/$name-build/CMakeCache.txt")
  [ "$found" = "$prefix/share/cmake/vbm-fluid" ] || fail "examples/$name took vbm-fluid from '$found', not from the prefix"
  if grep -qF -e "$root/solver" -e "$build/include" "$tmp/$name-build/compile_commands.json"; then
    fail "examples/$name's compile line reaches $root/solver or $build/include, not only the prefix"
  fi
  step "$tmp/$name-build.log" "building examples/$name against the install failed" \
    "$cmake_bin" --build "$tmp/$name-build" -j "$jobs"
}

build_example stencil-consumer
out=$("$tmp/stencil-consumer-build/stencil-consumer" 2>&1) || fail "the example failed: $out"
say "$out"

# The CUDA example where this build had CUDA (never in a CPU-only CI); run where a GPU answers.
nvcc=$(sed -n 's/^CMAKE_CUDA_COMPILER:[A-Z]*=//p' "$build/CMakeCache.txt")
if [ -n "$nvcc" ] && [ -x "$nvcc" ]; then
  # The build's architectures if it was given them, else what its CMakeLists.txt picks: the
  # GPU's (native), or sm_90 where there is none.
  gpu=0
  nvidia-smi -L >/dev/null 2>&1 && gpu=1
  archs=$(sed -n 's/^CMAKE_CUDA_ARCHITECTURES:[A-Z]*=//p' "$build/CMakeCache.txt")
  [ -n "$archs" ] || { [ $gpu = 1 ] && archs=native || archs=90; }
  build_example cuda-stencil-consumer -DCMAKE_CUDA_COMPILER="$nvcc" -DCMAKE_CUDA_ARCHITECTURES="$archs" \
    "-DCMAKE_CUDA_FLAGS=-Werror=all-warnings -Xcompiler=-Wall,-Wextra,-Werror"
  if [ $gpu = 1 ]; then
    out=$("$tmp/cuda-stencil-consumer-build/cuda-stencil-consumer" 2>&1) || fail "the CUDA example failed: $out"
    say "$out"
  else
    say "cuda-stencil-consumer built; not run (no CUDA GPU here)"
  fi
fi

# Every installed host header compiles as the first include of a file: none of them leans
# on a header outside include/vbm/ or on an include made before it. (.cuh need nvcc.)
mkdir -p "$tmp/headers"
headers=$(cd "$prefix/include/vbm" && ls -1 ./*.h | sed 's|^\./||' | paste -sd ';' -)
[ -n "$headers" ] || fail "no headers in $prefix/include/vbm"
cat >"$tmp/headers/CMakeLists.txt" <<'EOF'
cmake_minimum_required(VERSION 3.20)
project(vbm-header-check LANGUAGES CXX)
find_package(vbm-fluid CONFIG REQUIRED)
set(_sources "")
foreach(_h IN LISTS VBM_HEADERS)
  set(_cpp "${CMAKE_BINARY_DIR}/tu/${_h}.cpp")
  file(WRITE "${_cpp}" "#include <vbm/${_h}>\n")
  list(APPEND _sources "${_cpp}")
endforeach()
add_library(header_check OBJECT ${_sources})
target_link_libraries(header_check PRIVATE vbm::vbm)
EOF
say "compiling each installed header on its own"
step "$tmp/headers-configure.log" "configuring the header check against the install failed" \
  "$cmake_bin" -S "$tmp/headers" -B "$tmp/headers-build" "${consumer_args[@]}" "-DVBM_HEADERS=$headers"
step "$tmp/headers-build.log" "an installed header does not compile on its own" \
  "$cmake_bin" --build "$tmp/headers-build" -j "$jobs"

# A NANOVDB_ROOT without NanoVDB 13.0 must stop the configure with the package's message.
"$cmake_bin" -S "$tmp/stencil-consumer" -B "$tmp/bad-root-build" "${consumer_args[@]}" \
  -DNANOVDB_ROOT="$tmp/no-nanovdb-here" >"$tmp/bad-root.log" 2>&1 &&
  fail "configuring with NANOVDB_ROOT=$tmp/no-nanovdb-here succeeded; the package should refuse it"
grep -q "set NANOVDB_ROOT" "$tmp/bad-root.log" ||
  fail "a bad NANOVDB_ROOT failed without the package's message: $(grep -m1 -i error "$tmp/bad-root.log")"

# The installed programs start (no library left behind in the build tree).
if [ -x "$prefix/bin/vbm-check" ]; then
  "$prefix/bin/vbm-check" --help >"$tmp/vbm-check.log" 2>&1 || fail "the installed bin/vbm-check --help failed: $(tail -n1 "$tmp/vbm-check.log")"
fi

say "passed: headers and package in $(basename "$prefix"), example built and ran against them only"
