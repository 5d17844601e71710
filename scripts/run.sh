#!/usr/bin/env bash
# Sets up what is missing, builds, and runs the main program, vbm-fluid. Until the window
# and renderer exist it runs headless: the default scene for 100 frames (smoke-plume on a
# GPU, heat-shell on the CPU), then a timing table. Arguments replace those defaults.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
vbm_build -DBUILD_TESTING=OFF
if [ $# -eq 0 ]; then set -- --headless --frames 100; fi
exec "$root/build/bin/vbm-fluid" "$@"
