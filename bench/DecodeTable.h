// SPDX-License-Identifier: Apache-2.0
// The decode-alone table: every slot's (leafIndex, voxelOffset) written out at block widths
// 64..512, by our thread-local decode and by NanoVDB 13.0.0's shared-memory sweep, timed in
// the same interleaved rounds after both are checked.
#pragma once

#include "BenchGrids.h"
#include "BenchOptions.h"
#include "BenchReport.h"

#include <cuda_runtime.h>

namespace bench {

/// Checks both decodes at every width (ours against the host checker, NanoVDB's against ours;
/// MISMATCH lines, results.allIdentical), times them, prints the table and appends its rows.
/// Needs `grid` built at widths 64..512.
void runDecodeTable(const Options& opt, const GridOnDevice& grid, cudaStream_t stream, GridBenchResults& results);

} // namespace bench
