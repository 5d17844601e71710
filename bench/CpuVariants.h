// SPDX-License-Identifier: Apache-2.0
// vbm-bench --backend cpu, our side: the bench's consumer (sum C interleaved sidecar channels over a
// resolver's taps in tap order, write C floats per voxel) through the CPU form of the block
// skeleton (what the solver's CPU executor, HostExec, runs every stencil pass through), or through the shared form (the GPU's code,
// slot by slot, on host threads) to show what the CPU form gains.
#pragma once

#include "TapRuns.h"
#include "vbm/Resolver.h"
#include "vbm/VbmView.h"

namespace bench {

using vbm::HostForm;

/// Runs the consumer over every voxel of `v` (block width 2^log2Width, 7 or 9) through resolver
/// r (not NanoVDB13), C = channels (1, 2, 4, 8 or 16): out[index * C + ch].
void runOurConsumer(const vbm::VbmView& v, int log2Width, vbm::Resolver r, HostForm form, int channels,
                    const float* sidecar, float* out);

} // namespace bench
