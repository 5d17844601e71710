// SPDX-License-Identifier: Apache-2.0
// A bench grid on the device, and the dense floor's box (see BenchGrids.h).
#include "BenchGrids.h"

#include "TapRuns.h"

#include <algorithm>
#include <cmath>

namespace bench {

DenseBox denseBoxFor(uint64_t voxels)
{
    DenseBox b;
    b.nx = std::max(8, int(std::lround(std::cbrt(double(voxels)))));
    b.nz = int((voxels + uint64_t(b.nx) * b.nx - 1) / (uint64_t(b.nx) * b.nx));
    b.voxels = uint64_t(b.nx) * b.nx * b.nz;
    return b;
}

std::vector<float> withHalo(const std::vector<float>& in, const DenseBox& box, int C)
{
    const size_t px = size_t(box.nx) + 2, pz = size_t(box.nz) + 2;
    std::vector<float> out(px * px * pz * C);
    for (size_t v = 0; v < px * px * pz; ++v)
        std::copy(in.begin(), in.begin() + C, out.begin() + v * C);
    for (int z = 0; z < box.nz; ++z)
        for (int y = 0; y < box.nx; ++y) {
            const auto src = in.begin() + C + ((size_t(z) * box.nx + y) * box.nx) * C;
            std::copy(src, src + size_t(box.nx) * C, out.begin() + (((z + 1) * px + y + 1) * px + 1) * C);
        }
    return out;
}

GridOnDevice::GridOnDevice(const BenchGrid& grid, const std::vector<int>& log2Widths)
    : source(grid), host(grid.handle.grid<nanovdb::ValueOnIndex>()), voxels(host->activeVoxelCount()),
      leafCount(host->tree().nodeCount(0)), device(grid.handle), boxTable(vbm::buildLeafNeighbourTableHost(host, true)),
      crossTable(vbm::buildLeafNeighbourTableHost(host, false))
{
    for (int l : log2Widths) {
        meta[l] = vbm::buildVbmOnHost(host, l);
        firstLeafID.emplace(l, vbm::cuda::DeviceArray<uint32_t>(meta[l].firstLeafID));
        jumpMap.emplace(l, vbm::cuda::DeviceArray<uint64_t>(meta[l].jumpMap));
    }
    lastOffset = meta.at(log2Widths.at(0)).extent.lastOffset;
}

SparseProblem GridOnDevice::problem(int l, bool leafTables) const
{
    SparseProblem p;
    p.grid = device.grid();
    p.leafCount = leafCount;
    p.firstLeafID = firstLeafID.at(l).data();
    p.jumpMap = jumpMap.at(l).data();
    p.firstOffset = meta.at(l).extent.firstOffset;
    p.blockCount = meta.at(l).extent.blockCount;
    p.log2Width = l;
    if (leafTables) p.boxTable = boxTable.data(), p.crossTable = crossTable.data();
    return p;
}

} // namespace bench
