// SPDX-License-Identifier: Apache-2.0
// The headless run's summary table: per configuration and phase, the median and 95th percentile
// over the run's frames, in the order the phases run, with the rebuild phases of adaptive scenes
// reported over the frames that rebuilt and amortized over all.
#pragma once

#include "TimingsFile.h"

#include <string>

namespace vbm::app {

/// The table as Markdown (and, when a frame rebuilt the topology, its footnote).
std::string summaryTable(const TimingRecords& t);

} // namespace vbm::app
