#!/bin/bash
# Sourced by issue 15's H200 runs: unpacks the Vulkan loader, GLVND and the validation layers
# (.gl: Debian's libvulkan1, libegl1, libglvnd0, libopengl0, libgl1, libglx0, libgles2,
# vulkan-validationlayers; test_render's Render.* tests need the last), the carried
# binaries (.carry/old: fb63de0, .carry/new and .carry/tests: the code under test) and their
# shared libraries (.carry/lib); links the binaries where the tests look for them.
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
C=$PWD/.carry
for d in old new tests lib; do [ -d $C/$d ] && gunzip -f $C/$d/*.gz 2>/dev/null; done
chmod +x $C/old/* $C/new/* $C/tests/* 2>/dev/null
export LD_LIBRARY_PATH=$C/lib __EGL_VENDOR_LIBRARY_FILENAMES=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json
icd=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json; [ -f $icd ] && export VK_DRIVER_FILES=$icd
mkdir -p build/bin
for b in vbm-fluid vbm-check; do [ -f $C/tests/$b ] && ln -sf $C/tests/$b build/bin/$b; done
[ -f $C/new/vbm-bench ] && ln -sf $C/new/vbm-bench build/bin/vbm-bench
true
