// SPDX-License-Identifier: Apache-2.0
// One bench grid's device copy with its VBM metadata at every block width a run needs, and the
// dense floor's box (the grids themselves: BenchGridSources.h).
#pragma once

#include "BenchGridSources.h"
#include "BenchKernels.h"
#include "DeviceArray.h"
#include "DeviceRuns.h"
#include "vbm/BuildVoxelBlockManager.h"
#include "vbm/LeafNeighbourTable.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace bench {

/// The dense floor's box for a sparse grid: nx * nx * nz voxels, about as many as it has.
struct DenseBox {
    int nx = 0, nz = 0;
    uint64_t voxels = 0;
};
DenseBox denseBoxFor(uint64_t activeVoxels);
/// The dense floor's input with its one-voxel halo: `in` holds the background's C values, then
/// the box's voxels (x fastest); the result is (nx+2)^2 * (nz+2) voxels, the halo the background.
std::vector<float> withHalo(const std::vector<float>& in, const DenseBox& box, int C);

/// One grid on the device with its VBM metadata at each width in `log2Widths` (built on the
/// host, copied over). Not copyable: the kernels' problems point into it.
class GridOnDevice {
public:
    GridOnDevice(const BenchGrid& grid, const std::vector<int>& log2Widths);
    GridOnDevice(const GridOnDevice&) = delete;
    GridOnDevice& operator=(const GridOnDevice&) = delete;

    const BenchGrid& source;
    const vbm::IndexGrid* host; ///< the host grid (the checks' oracle reads it)
    uint64_t voxels;            ///< active voxels
    uint32_t leafCount;
    vbm::cuda::DeviceGrid device;
    std::map<int, vbm::VbmMetadata> meta; ///< by log2 width
    std::map<int, vbm::cuda::DeviceArray<uint32_t>> firstLeafID;
    std::map<int, vbm::cuda::DeviceArray<uint64_t>> jumpMap;
    uint64_t lastOffset = 0; ///< the last value index (the same at every width)
    /// The grid's per-leaf neighbour tables (vbm/LeafNeighbourTable.h), built once here.
    vbm::cuda::DeviceArray<uint32_t> boxTable, crossTable;

    /// The sparse problem at width 2^log2Width: grid and VBM filled in, no sidecar or output;
    /// with `leafTables` the cached resolvers read the per-leaf tables instead of staging.
    SparseProblem problem(int log2Width, bool leafTables = false) const;
};

} // namespace bench
