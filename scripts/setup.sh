#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Installs what vbm-fluid needs to build and test, from Debian packages.
# Idempotent: when everything is present it only checks, and returns in a second.
#  - compilers, CMake, Ninja, GoogleTest: from the machine's own Debian suite;
#  - NanoVDB 13.0.x headers: the single libnanovdb-dev .deb from Debian unstable (sid),
#    fetched with a private apt state folder and a temporary sources entry, extracted
#    into .deps/nanovdb (git-ignored). Nothing from sid is installed on the system.
#  - CUDA 13 (nvcc) is expected in /usr/local/cuda; without it the build is CPU-only.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
deps="$root/.deps"
say() { echo "[setup] $*" >&2; }
die() { echo "[setup] error: $*" >&2; exit 1; }

sudo_cmd=""
if [ "$(id -u)" != 0 ]; then
  command -v sudo >/dev/null || die "not root and no sudo: run scripts/setup.sh as root, or install the packages listed in it"
  sudo_cmd="sudo"
fi

# Debian packages for the build and the tests. The window: GLFW and Dear ImGui (libimgui-dev
# holds the headers and a static library with the GLFW and Vulkan backends); its test runs under
# Xvfb (xvfb-run needs xauth). The fuzz targets need clang with libFuzzer and the sanitizer
# runtimes (libclang-rt-dev), and llvm-symbolizer (llvm) for readable sanitizer stacks.
# Meshes in: assimp reads them (libassimp-dev), OpenVDB 10 voxelizes them (libopenvdb-dev; its
# headers also need Boost's; also vbm-bench --backend cpu's peer and the .vdb writer); the mesh tests and
# the smoke-mesh scene use Debian's models (assimp-testmodels, under /usr/share/assimp/models).
# scripts/plot-bench.py draws the bench charts with matplotlib (python3-matplotlib; its test: PlotBench.*).
# Blender (blender) renders an exported .vdb sequence in BlenderExport.RendersAnExportedSequence.
packages=(build-essential cmake ninja-build pkg-config libgtest-dev ca-certificates
  libvulkan-dev mesa-vulkan-drivers glslang-tools vulkan-validationlayers libpng-dev libglm-dev
  libglfw3-dev libimgui-dev xvfb xauth python3 python3-matplotlib binutils clang libclang-rt-dev llvm
  libopenvdb-dev libboost-dev libassimp-dev assimp-testmodels blender)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  say "installing: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  $sudo_cmd apt-get update -q >/dev/null || die "apt-get update failed: check the network and /etc/apt/sources*"
  $sudo_cmd apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null \
    || die "apt-get install ${missing[*]} failed"
fi

# NanoVDB version as encoded in a NanoVDB.h: "major.minor" (32.9 is release 13.0.x).
header_version() {
  local h="$1/nanovdb/NanoVDB.h"
  [ -f "$h" ] || return 1
  local ma mi
  ma=$(sed -n 's/^#define NANOVDB_MAJOR_VERSION_NUMBER *\([0-9]*\).*/\1/p' "$h")
  mi=$(sed -n 's/^#define NANOVDB_MINOR_VERSION_NUMBER *\([0-9]*\).*/\1/p' "$h")
  [ -n "$ma" ] && [ -n "$mi" ] && echo "$ma.$mi"
}

nanovdb_dir="$deps/nanovdb"
if [ "$(header_version "$nanovdb_dir/include" || true)" = "32.9" ]; then
  : # already there
else
  say "fetching NanoVDB 13.0 headers (libnanovdb-dev from Debian unstable) into .deps/nanovdb"
  mirror=$(grep -hoE '^URIs:.*' /etc/apt/sources.list.d/*.sources 2>/dev/null | awk '{print $2}' | grep -v security | head -n1 || true)
  [ -n "$mirror" ] || mirror=$(grep -hoE '^deb +(\[[^]]*\] +)?[a-z]+://[^ ]+' /etc/apt/sources.list 2>/dev/null | awk '{print $NF}' | grep -v security | head -n1 || true)
  [ -n "$mirror" ] || mirror="http://deb.debian.org/debian"
  keyring=/usr/share/keyrings/debian-archive-keyring.gpg
  [ -f "$keyring" ] || die "$keyring missing: install the debian-archive-keyring package"
  state=$(mktemp -d)
  trap 'rm -rf "$state"' EXIT
  mkdir -p "$state/lists/partial" "$state/cache/archives/partial"
  echo "deb [signed-by=$keyring] $mirror sid main" >"$state/sid.list"
  apt_opts=(-o "Dir::Etc::SourceList=$state/sid.list" -o "Dir::Etc::SourceParts=/dev/null"
    -o "Dir::State::Lists=$state/lists" -o "Dir::Cache=$state/cache" -o "Dir::State::status=/dev/null"
    -o "APT::Sandbox::User=root" -o "APT::Architecture=amd64" -o "APT::Architectures=amd64")
  apt-get "${apt_opts[@]}" update -q >/dev/null 2>"$state/update.log" \
    || die "could not read Debian unstable's signed index from $mirror ($(tail -n1 "$state/update.log"))"
  versions=$(apt-cache "${apt_opts[@]}" madison libnanovdb-dev | awk -F'|' '{gsub(/ /,"",$2); print $2}')
  pick=$(echo "$versions" | grep -E '^13\.0\.0-' | head -n1 || true)
  [ -n "$pick" ] || pick=$(echo "$versions" | grep -E '^13\.0\.' | head -n1 || true)
  [ -n "$pick" ] || die "Debian unstable offers no libnanovdb-dev 13.0.x (it has: ${versions:-none}); set NANOVDB_ROOT to a NanoVDB 13.0 include folder"
  (cd "$state" && apt-get "${apt_opts[@]}" download "libnanovdb-dev=$pick" >/dev/null 2>"$state/dl.log") \
    || die "download of libnanovdb-dev $pick failed ($(tail -n1 "$state/dl.log"))"
  rm -rf "$state/x" && dpkg-deb -x "$state"/libnanovdb-dev_*.deb "$state/x"
  v=$(header_version "$state/x/usr/include" || true)
  [ "$v" = "32.9" ] || die "libnanovdb-dev $pick holds NanoVDB $v, expected 32.9 (release 13.0.x)"
  rm -rf "$nanovdb_dir" && mkdir -p "$nanovdb_dir"
  mv "$state/x/usr/include" "$nanovdb_dir/include"
  echo "$pick" >"$nanovdb_dir/DEBIAN_VERSION"
  say "NanoVDB headers: libnanovdb-dev $pick (NanoVDB $v) in .deps/nanovdb/include"
fi

if [ -x /usr/local/cuda/bin/nvcc ] || command -v nvcc >/dev/null; then :; else
  say "warning: no nvcc (CUDA 13) found in /usr/local/cuda/bin or PATH: building the CPU parts only"
fi
