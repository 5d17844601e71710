#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Checks that a product binary (vbm-fluid) carries none of the check harnesses (check/: tap
# checks, device runs, consumer runs), which only vbm-check, vbm-bench and the tests link.
# Usage: scripts/check-product-symbols.sh BINARY
set -euo pipefail
bin=${1:?usage: check-product-symbols.sh BINARY}
symbols=$(nm -C "$bin")
# nm must see the product itself, or finding no harness proves nothing
grep -q "vbm::Solver::step" <<<"$symbols" \
  || { echo "check-product-symbols: $bin has no symbol vbm::Solver::step (stripped, or not vbm-fluid?)" >&2; exit 1; }
harness='resolveTapsOnHost|resolveTapsOnDevice|checkTaps|checkDecode|decodeOnHost|decodeOnDevice|buildVbmOnDevice|applyConsumerOnHost|applyConsumerOnDevice|randomSidecar|countFallbackBlocks|skeletonTapsKernel|publicApiTapsKernel|consumerKernel|vbm::cuda::DeviceGrid'
if found=$(grep -E "$harness" <<<"$symbols"); then
  echo "check-product-symbols: $bin carries check-harness symbols:" >&2
  head -n 20 <<<"$found" >&2
  exit 1
fi
echo "$bin: $(wc -l <<<"$symbols") symbols, none from the check harnesses"
