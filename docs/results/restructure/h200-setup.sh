#!/bin/bash
# Sourced by the restructure's H200 runs: unpacks the Vulkan loader and GLVND (.gl), the carried
# binaries (.carry/new: this restructure, .carry/old: d19f962, the code before it) and their
# shared libraries (.carry/lib); links the new binaries where the tests look for them.
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
C=$PWD/.carry
for d in new old; do gunzip -f $C/$d/*.gz 2>/dev/null; chmod +x $C/$d/*; done
export LD_LIBRARY_PATH=$C/lib __EGL_VENDOR_LIBRARY_FILENAMES=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json
icd=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json; [ -f $icd ] && export VK_DRIVER_FILES=$icd
mkdir -p build/bin
for b in vbm-fluid vbm-bench vbm-check; do ln -sf $C/new/$b build/bin/$b; done
