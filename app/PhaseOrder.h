// SPDX-License-Identifier: Apache-2.0
// The order phases are listed in by the tables and plots: the order they run in a step, also for
// a phase that runs only in some frames. The rebuild phases open a step once every K frames;
// listed by first appearance alone they would land after the frame's last phase.
#pragma once

#include "FrameTimings.h"

#include <vector>

namespace vbm::app {

/// Adds the phases of `ran` (one frame's, in the order they ran) that `order` lacks, each before
/// the first phase that ran after it in that frame and is already listed, else at the end.
void mergeRunOrder(std::vector<Phase>& order, const std::vector<Phase>& ran);

} // namespace vbm::app
