// SPDX-License-Identifier: Apache-2.0
// The resolver comparison on one grid at one channel count: our six resolvers and NanoVDB
// 13.0.0's path at each block width, ReadAccessor per voxel, the dense floor and a device copy,
// all on the same data in the same interleaved rounds, every output checked first.
#pragma once

#include "BenchGrids.h"
#include "BenchOptions.h"
#include "BenchReport.h"
#include "DeviceArray.h"

#include <cuda_runtime.h>

#include <cstddef>

namespace bench {

/// The device copy's buffers, 1 GiB each: allocated once and timed in every comparison's
/// rounds, so the copy bandwidth is measured alongside every kernel.
struct CopyBuffers {
    static constexpr size_t Bytes = size_t(1) << 30;
    vbm::cuda::DeviceArray<char> src, dst;
    CopyBuffers() : src(Bytes), dst(Bytes) { src.fill(1); }
};

/// Runs the comparison for `channels` sidecar channels on `grid`: checks every variant's
/// output (MISMATCH lines, results.allIdentical), times them in opt.warmup + opt.rounds rounds,
/// appends their rows to `results` and prints the resolver table, the peers table and the
/// effective bandwidths.
void runResolverComparison(const Options& opt, const GridOnDevice& grid, int channels, cudaStream_t stream,
                           CopyBuffers& copy, GridBenchResults& results);

} // namespace bench
