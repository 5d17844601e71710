// SPDX-License-Identifier: Apache-2.0
// The host oracles of vbm-bench's output checks (see OutputChecks.h).
#include "OutputChecks.h"

#include "vbm/VoxelBlockManager.h"

#include <cmath>
#include <cstring>

namespace bench {

uint64_t countDenseMismatches(const std::vector<float>& got, const std::vector<float>& denseHost, const DenseBox& box,
                              int C, bool boxStencil)
{
    const int nx = box.nx, nz = box.nz;
    const auto v = [&](int x, int y, int z, int ch) -> double {
        if (x < 0 || y < 0 || z < 0 || x >= nx || y >= nx || z >= nz) return denseHost[ch];
        return denseHost[C + ((size_t(z) * nx + y) * nx + x) * C + ch];
    };
    uint64_t bad = 0;
    for (uint64_t s = 0; s < box.voxels; s += 97) {
        const int x = int(s % nx), y = int(s / nx % nx), z = int(s / (uint64_t(nx) * nx));
        for (int ch = 0; ch < C; ++ch) {
            double want = 0;
            if (boxStencil) {
                for (int dz = -1; dz <= 1; ++dz)
                    for (int dy = -1; dy <= 1; ++dy)
                        for (int dx = -1; dx <= 1; ++dx)
                            want += v(x + dx, y + dy, z + dz, ch);
            } else {
                want = v(x, y, z, ch) + v(x - 1, y, z, ch) + v(x + 1, y, z, ch) + v(x, y - 1, z, ch) +
                       v(x, y + 1, z, ch) + v(x, y, z - 1, ch) + v(x, y, z + 1, ch);
            }
            if (!(std::abs(got[s * C + ch] - want) <= 1e-4 * (1 + std::abs(want)))) ++bad;
        }
    }
    return bad;
}

uint64_t countAccessorMismatches(const vbm::IndexGrid* grid, const std::vector<float>& got,
                                 const std::vector<float>& sidecarHost, int C, bool boxStencil)
{
    auto acc = grid->getAccessor();
    const uint32_t leafCount = grid->tree().nodeCount(0);
    uint64_t bad = 0;
    for (uint32_t li = 0; li < leafCount; li += 7) {
        const auto& leaf = vbm::leaves(grid)[li];
        for (auto on = leaf.valueMask().beginOn(); on; ++on) {
            const nanovdb::Coord c = leaf.offsetToGlobalCoord(*on);
            const uint64_t index = leaf.getValue(*on);
            std::vector<uint64_t> taps;
            if (boxStencil) {
                for (int t = 0; t < 27; ++t)
                    taps.push_back(acc.getValue(c + nanovdb::Coord(t / 9 - 1, t / 3 % 3 - 1, t % 3 - 1)));
            } else {
                const nanovdb::Coord d[7] = {{0, 0, 0}, {-1, 0, 0}, {1, 0, 0}, {0, -1, 0},
                                             {0, 1, 0}, {0, 0, -1}, {0, 0, 1}};
                for (auto& dd : d)
                    taps.push_back(acc.getValue(c + dd));
            }
            for (int ch = 0; ch < C; ++ch) {
                float s = 0.f;
                for (uint64_t t : taps)
                    s += sidecarHost[t * C + ch];
                bad += std::memcmp(&s, &got[index * C + ch], 4) != 0;
            }
        }
    }
    return bad;
}

uint64_t countUnwritten(const std::vector<float>& got, int C)
{
    uint64_t unwritten = 0;
    for (uint64_t k = uint64_t(C); k < got.size(); ++k)
        unwritten += std::isnan(got[k]);
    return unwritten;
}

uint64_t countDiffering(const std::vector<float>& got, const std::vector<float>& baseline, int C)
{
    // One memcmp first: the common case (identical) stays as fast as it was.
    if (std::memcmp(got.data() + C, baseline.data() + C, (got.size() - C) * 4) == 0) return 0;
    uint64_t n = 0;
    for (size_t k = size_t(C); k < got.size(); ++k)
        n += std::memcmp(&got[k], &baseline[k], 4) != 0;
    return n;
}

} // namespace bench
