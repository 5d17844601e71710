#!/bin/bash
# Packs binaries for the H200 runs of issue 15 (run here, from the project root):
#   carry.sh NAME BUILD_DIR BIN...   -> .carry/NAME/BIN.gz (stripped), and .carry/lib with the
# shared libraries they load that the GPU machine lacks (all but glibc's, CUDA's and Vulkan's).
set -euo pipefail
name=$1 build=$2; shift 2
mkdir -p .carry/$name .carry/lib
for b in "$@"; do
  strip -o .carry/$name/$b $build/bin/$b && gzip -f .carry/$name/$b
  ldd $build/bin/$b | awk '/=> \//{print $3}' |
    { grep -v -E '/(libc|libm|libdl|libpthread|librt|libgcc_s|libstdc\+\+|ld-linux|libcuda|libvulkan|libGL|libEGL)[.-]' || true; } |
    while read -r l; do cp -Lu "$l" .carry/lib/; done || true
done
du -sh .carry
# the device tool refuses a call whose tracked files plus carried paths pass 64 MiB
tracked=$(git ls-files -z | du -cb --files0-from=- | tail -1 | cut -f1)
total=$(( tracked + $(du -sb .carry | cut -f1) + $( [ -d .gl ] && du -sb .gl | cut -f1 || echo 0) ))
echo "tracked files + .carry + .gl: $(( total >> 20 )) MiB (the device tool's limit: 64)"
[ $total -lt $(( 64 << 20 )) ] || echo "carry.sh: over the limit: move some binaries to another folder (e.g. .carry2/) for a second call" >&2
