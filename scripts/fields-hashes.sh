#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Prints one line per (scene, resolver, block width): the SHA-256 of the .nvdb that
# `vbm-fluid --headless --export` writes after N steps (every field, bit for bit). Used to show
# that a change leaves the simulation's results unchanged: run it with the old and the new
# binary and diff the outputs (docs/architecture.md, "Behaviour kept").
# Usage: scripts/fields-hashes.sh VBM_FLUID [cpu|cuda] [STEPS_SMALL] [STEPS_LARGE]
# (STEPS_LARGE for smoke-plume-4m; SCENES="a b" runs a subset, each a built-in name or a file.
# ALL_RESOLVERS=1: one run per scene and width with --resolver all, which steps every resolver
# in turn and checks their fields bitwise identical after every frame; the line then holds the
# first resolver's hash and whether all were identical.)
set -euo pipefail
fluid=${1:?usage: fields-hashes.sh VBM_FLUID [cpu|cuda] [STEPS_SMALL] [STEPS_LARGE]}
backend=${2:-cpu}
small=${3:-12}
large=${4:-3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

# The built-in scenes, plus variants that reach the paths the built-ins leave out:
# vorticity confinement, the Jacobi-preconditioned pressure solve (on a smaller plume: Jacobi
# needs hundreds of iterations), explicit heat in a box.
sed 's/^dt 1$/dt 1\nvorticity 0.3/' "$here/assets/scenes/smoke-plume.scene" >"$work/smoke-vorticity.scene"
printf 'kind smoke\ndomain sphere 0 24 0 24\nremove sphere 0 27 0 5\nemitter sphere 0 6 0 3\nbuoyancy 0.4\ndt 1\npressure_preconditioner jacobi\ncg_max_iterations 2000\n' \
  >"$work/smoke-jacobi.scene"
sed -e 's/^scheme implicit$/scheme explicit/' -e 's/^dt 2$/dt 0.16/' \
  "$here/assets/scenes/heat-block.scene" >"$work/heat-block-explicit.scene"

resolvers=(computeBoxStencil forEachBoxStencil computeBoxStencilCached forEachBoxStencilCached
  computeCrossStencil computeCrossStencilCached)
[ "$backend" = cuda ] && resolvers=(NanoVDB13 "${resolvers[@]}")

scenes=(heat-shell heat-block smoke-plume smoke-plume-4m smoke-open smoke-open-4m smoke-mesh fire fire-small
  "$work/smoke-vorticity.scene" "$work/smoke-jacobi.scene" "$work/heat-block-explicit.scene")
[ -n "${SCENES:-}" ] && read -r -a scenes <<<"$SCENES" # a subset, by name (built-ins) or path
for scene in "${scenes[@]}"; do
  [ -f "$work/$scene.scene" ] && scene="$work/$scene.scene" # a variant above, by name
  steps=$small
  [ "$scene" = smoke-plume-4m ] && steps=$large
  for width in 128 512; do
    if [ "${ALL_RESOLVERS:-0}" = 1 ]; then
      out="$work/fields.nvdb"
      "$fluid" --headless --render none --backend "$backend" --scene "$scene" --frames "$steps" \
        --resolver all --block-width "$width" --export "$out" >"$work/log" 2>&1 \
        || { cat "$work/log" >&2; echo "fields-hashes: $scene all $width failed" >&2; exit 1; }
      same=$(grep -q "after every frame: yes" "$work/log" && echo yes || echo NO)
      echo "$(basename "$scene" .scene) all w$width steps=$steps $(sha256sum "$out" | cut -c1-16) identical=$same"
      continue
    fi
    for r in "${resolvers[@]}"; do
      out="$work/fields.nvdb"
      "$fluid" --headless --render none --backend "$backend" --scene "$scene" --frames "$steps" \
        --resolver "$r" --block-width "$width" --export "$out" >"$work/log" 2>&1 \
        || { cat "$work/log" >&2; echo "fields-hashes: $scene $r $width failed" >&2; exit 1; }
      echo "$(basename "$scene" .scene) $r w$width steps=$steps $(sha256sum "$out" | cut -c1-16)"
    done
  done
done
