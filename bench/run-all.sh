#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The canonical GPU numbers, regenerated in one run: the files the README's tables and charts
# are drawn from. Two steps, since the GPU machine has no matplotlib:
#
#   bench/run-all.sh measure [BIN_DIR] [OUT_DIR]   on the GPU machine (defaults: build/bin, docs/bench)
#   bench/run-all.sh draw [OUT_DIR] [TAG]          anywhere with python3-matplotlib
#
# measure writes, under OUT_DIR, with TAG the GPU's model from nvidia-smi (h200, h100, ...;
# VBM_BENCH_TAG overrides it):
#   bench-TAG.json, bench-TAG.md          vbm-bench: the six resolvers, NanoVDB's VBM path, the
#                                         peers and the dense floor on the three shells (C = 1, 8)
#   solver-smoke-plume-4m-TAG.json, .md   vbm-bench --solver smoke-plume-4m: 300 steps, the
#                                         default resolvers against computeBoxStencil everywhere
#   defaults-TAG.md                       vbm-fluid's 4.2M plume as shipped and with each flag that
#                                         trades speed for memory or results (300 frames each,
#                                         medians over frames 101-300), fields hashed
# draw writes the charts (resolvers-*-TAG.png, step-smoke-plume-4m-TAG.png; TAG default h200) beside them.
# Every command is printed before it runs; any failure stops the run (exit 1). VBM_COMMIT names
# the commit where the tree has no .git (a copy on the GPU machine).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
step=${1:-}
case "$step" in
measure)
  bin=${2:-build/bin} out=${3:-docs/bench}
  mkdir -p "$out"
  run() { echo "+ $*" >&2; "$@"; }
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >&2 || true
  model=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1 | grep -oE '[A-Z][0-9]{2,4}' | head -1 || true)
  tag=${VBM_BENCH_TAG:-$(echo "${model:-gpu}" | tr '[:upper:]' '[:lower:]')}
  echo "files tagged $tag" >&2
  run "$bin/vbm-bench" --json "$out/bench-$tag.json" >"$out/bench-$tag.md"
  run "$bin/vbm-bench" --solver smoke-plume-4m --steps 300 --json "$out/solver-smoke-plume-4m-$tag.json" \
    >"$out/solver-smoke-plume-4m-$tag.md"
  tmp=$(mktemp -d)
  configs=("default:" "tap-table-off:--tap-table off" "max-cfl-1:--max-cfl 1" "half:--scalars half")
  for c in "${configs[@]}"; do
    name=${c%%:*} flags=${c#*:}
    # shellcheck disable=SC2086
    run "$bin/vbm-fluid" --headless --render none --scene smoke-plume-4m --frames 300 --fields-hash \
      --timings "$tmp/$name.csv" $flags >"$tmp/$name.txt"
  done
  {
    echo "# vbm-fluid's 4.2M plume: the defaults and the flags that trade speed for memory"
    echo
    echo "\`bench/run-all.sh measure\`: \`vbm-fluid --headless --render none --scene smoke-plume-4m --frames 300"
    echo "--fields-hash --timings F.csv [FLAGS]\`, one run per row, in this order; ms per step, median"
    echo "(min-max) over frames 101-300; commit ${VBM_COMMIT:-$(git rev-parse --short HEAD 2>/dev/null || echo unknown)};"
    echo "$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)."
    echo
    echo "| flags | memory (B per voxel) | tap table | step ms | pressure CG ms | advection ms | fields hash |"
    echo "|---|---|---|---|---|---|---|"
    for c in "${configs[@]}"; do
      name=${c%%:*} flags=${c#*:}
      python3 - "$tmp/$name.csv" "$tmp/$name.txt" "${flags:-(none)}" <<'PY'
import csv, re, statistics, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if 101 <= int(r["frame"]) <= 300]
text = open(sys.argv[2]).read()
def cell(phase):
    v = [float(r["ms"]) for r in rows if r["phase"] == phase]
    return f"{statistics.median(v):.3f} ({min(v):.3f}-{max(v):.3f})"
memory = re.search(r"memory: +([0-9.]+) B per voxel", text).group(1)
table = re.search(r"tap table: +(on|off)", text).group(1)
fields = re.search(r"fields hash: ([0-9a-f]{16})", text).group(1)
print(f"| {sys.argv[3]} | {memory} | {table} | {cell('step')} | {cell('pressure CG')} | {cell('advection')} | {fields} |")
PY
    done
  } >"$out/defaults-$tag.md"
  cat "$out/defaults-$tag.md"
  rm -rf "$tmp"
  ;;
draw)
  out=${2:-docs/bench} tag=${3:-h200}
  python3 scripts/plot-bench.py --bench "$out/bench-$tag.json" --solver "$out/solver-smoke-plume-4m-$tag.md" \
    --out "$out" --tag "$tag"
  ;;
*)
  sed -n '3,/^[^#]/p' "$0" | sed '$d; s/^# \{0,1\}//'
  [ "$step" = "-h" ] || [ "$step" = "--help" ] && exit 0
  exit 2
  ;;
esac
