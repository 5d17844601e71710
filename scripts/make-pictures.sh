#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The README's pictures: a late frame of each built-in scene, and an animation of the CPU's
# default scene (fire-small), encoded with Debian's ImageMagick (installed here if missing).
# Usage: scripts/make-pictures.sh [--backend cpu|cuda] [--out DIR] [--scenes "NAME:FRAMES ..."]
#        [--animation-only | --stills-only]
# Needs a built vbm-fluid (scripts/run.sh or scripts/test.sh builds it). The large scenes
# (smoke-plume-4m, smoke-open-4m) want a GPU: on the CPU leave them out with --scenes.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
fluid="$root/build/bin/vbm-fluid"
backend=cpu out="$root/docs/images" stills=1 animation=1
scenes="heat-shell:2000 heat-block:300 smoke-plume:500 smoke-open:300 smoke-mesh:300 fire:300 fire-small:300"
while [ $# -gt 0 ]; do
  case "$1" in
    --backend) backend=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --scenes) scenes=$2; shift 2 ;;
    --animation-only) stills=0; shift ;;
    --stills-only) animation=0; shift ;;
    -h|--help) sed -n 3,8p "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "make-pictures.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
[ -x "$fluid" ] || { echo "make-pictures.sh: $fluid is missing: build first (scripts/run.sh)" >&2; exit 1; }
if [ $animation = 1 ] && ! command -v convert >/dev/null; then # only the animation needs it
  echo "[pictures] installing imagemagick" >&2
  { apt-get update -q && apt-get install -y -q imagemagick; } >/dev/null || {
    echo "make-pictures.sh: could not install imagemagick (apt-get); install it and run again" >&2; exit 1; }
fi
mkdir -p "$out"
if [ $stills = 1 ]; then
  for sf in $scenes; do
    s=${sf%%:*} f=${sf##*:}
    echo "[pictures] $s, frame $f" >&2
    "$fluid" --headless --backend "$backend" --scene "$s" --frames "$f" --size 960x540 \
      --screenshot "$out/$s.png" >/dev/null
  done
fi
if [ $animation = 1 ]; then
  # fire-small from frame 120 to 298, every second frame: 90 frames at 25 per second
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  echo "[pictures] animation: fire-small, 300 frames" >&2
  "$fluid" --headless --backend "$backend" --scene fire-small --frames 300 --size 400x300 \
    --screenshot "$tmp/f%04d.png" >/dev/null
  frames=$(seq -f "$tmp/f%04g.png" 120 2 298)
  convert -delay 4 -loop 0 $frames -layers Optimize "$out/fire-small.gif"
  echo "[pictures] $out/fire-small.gif: $(stat -c %s "$out/fire-small.gif") bytes, 90 frames" >&2
fi
