#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# BlenderExport.RendersAnExportedSequence: vbm-fluid exports 10 frames of fire-small as .vdb
# files; Blender (headless, Cycles on the CPU, no denoiser) imports them as one volume
# sequence, as its File > Import > OpenVDB does, and renders the last frame
# (scripts/blender-render.py). Passes when Blender found all 10 frames and the render shows
# the volume: pixels that differ from the background.
#   blender_export_test.sh VBM_FLUID BLENDER RENDER_SCRIPT
set -euo pipefail
fluid=$1 blender=$2 script=$3
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$fluid" --headless --backend cpu --render none --scene fire-small --frames 10 --export-every 1 \
  "$dir/fire_%04d.vdb" >"$dir/fluid.txt" 2>&1 || { cat "$dir/fluid.txt"; exit 1; }
start=$(date +%s)
"$blender" -b --factory-startup --python-exit-code 1 -P "$script" -- "$dir/fire_0000.vdb" "$dir/frame.png" \
  --size 240x180 --samples 16 --check >"$dir/blender.txt" 2>&1 || { cat "$dir/blender.txt"; exit 1; }
grep "blender-render.py:" "$dir/blender.txt"
echo "Blender took $(( $(date +%s) - start )) s"
grep -q "frame 9 of 10 " "$dir/blender.txt" || { echo "FAIL: Blender did not read the 10 files as one sequence"; exit 1; }
grep -q "grids density, temperature" "$dir/blender.txt" || { echo "FAIL: no density and temperature grids"; exit 1; }
[ -s "$dir/frame.png" ] || { echo "FAIL: no image"; exit 1; }
echo "PASS"
