// SPDX-License-Identifier: Apache-2.0
// The host oracles vbm-bench checks outputs against before it times anything: a sum in double
// for the dense floor, a ReadAccessor sum for the sparse baseline, and the baseline's exact
// bytes for every other sparse variant. Outputs are C floats per value index; index 0 (the
// background) is never written, so the comparisons start at C.
#pragma once

#include "BenchGrids.h"
#include "GridGenerators.h"

#include <cstdint>
#include <vector>

namespace bench {

/// Sampled voxels of the dense box (every 97th) whose outputs differ from a host sum in double
/// by more than 1e-4 relative: the kernel reassociates, so the check is close, not bitwise.
/// `in` holds the background's C values, then the box's voxels (x fastest).
uint64_t countDenseMismatches(const std::vector<float>& got, const std::vector<float>& in, const DenseBox& box,
                              int channels, bool boxStencil);

/// Sampled voxels (every 7th leaf) whose outputs are not bitwise the float sum, in tap order,
/// of the sidecar at the taps NanoVDB's ReadAccessor finds: the oracle for the first variant
/// of a shape, which every other variant of that shape must then match exactly.
uint64_t countAccessorMismatches(const vbm::IndexGrid* grid, const std::vector<float>& got,
                                 const std::vector<float>& sidecar, int channels, bool boxStencil);

/// Outputs past index 0 still holding the NaN poison: voxels a kernel never wrote.
uint64_t countUnwritten(const std::vector<float>& got, int channels);

/// Outputs past index 0 whose bytes differ from the baseline's (0 when identical).
uint64_t countDiffering(const std::vector<float>& got, const std::vector<float>& baseline, int channels);

} // namespace bench
