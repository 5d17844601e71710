#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Sets up what is missing, builds, and runs the main program, vbm-fluid.
# On a desktop (DISPLAY or WAYLAND_DISPLAY set) it opens the window on the default scene.
# Without a display it runs headless: the default scene (smoke-plume-4m on a GPU, fire-small on
# the CPU) for 100 frames, rendered offscreen; it leaves build/vbm-fluid.png (the last frame) and
# build/vbm-fluid-timings.csv, and prints the timing table. Arguments replace those defaults.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
vbm_build -DBUILD_TESTING=OFF
if [ $# -eq 0 ] && [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; then
  echo "[run] no display: running headless (screenshot and timings land in build/)" >&2
  set -- --headless --frames 100 --screenshot "$root/build/vbm-fluid.png" --timings "$root/build/vbm-fluid-timings.csv"
fi
exec "$root/build/bin/vbm-fluid" "$@"
