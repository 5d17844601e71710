// SPDX-License-Identifier: Apache-2.0
// The mesh obstacles' surface band (see ObstacleSurface.h).
#include "ObstacleSurface.h"

#include "GridGenerators.h"

#include <nanovdb/NanoVDB.h>

#include <algorithm>
#include <array>
#include <stdexcept>
#include <tuple>

namespace vbm::render {

namespace {

using nanovdb::Coord;
using SolidGrid = nanovdb::NanoGrid<nanovdb::ValueOnIndex>;

constexpr int Leaf = 8;
constexpr int Pad = Leaf + 2 * BandReach; // a leaf with the band's reach on every side
constexpr int Sums = Pad + 1;

/// The leaves the band may touch: those holding solid voxels and their 26 neighbours (the reach,
/// 2 voxels, is less than a leaf).
std::vector<Coord> candidateLeaves(const SolidGrid& solid)
{
    std::vector<Coord> out;
    const auto& tree = solid.tree();
    for (uint32_t n = 0; n < tree.nodeCount(0); ++n) {
        const Coord o = tree.getFirstNode<0>()[n].origin();
        for (int k = -1; k <= 1; ++k)
            for (int j = -1; j <= 1; ++j)
                for (int i = -1; i <= 1; ++i)
                    out.push_back(o + Coord(i * Leaf, j * Leaf, k * Leaf));
    }
    const auto key = [](const Coord& c) { return std::make_tuple(c[0], c[1], c[2]); };
    std::sort(out.begin(), out.end(), [&](const Coord& a, const Coord& b) { return key(a) < key(b); });
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

/// Solid voxels of one padded leaf as a summed-volume table, so any box's count is 8 reads.
class PaddedLeaf {
public:
    /// The Pad^3 voxels from `corner` (solid where `acc` finds them active); false when none is.
    template <typename Accessor>
    bool load(const Accessor& acc, const Coord& corner)
    {
        mSolid.fill(0);
        mSums.fill(0);
        for (int x = 0; x < Pad; ++x)
            for (int y = 0; y < Pad; ++y)
                for (int z = 0; z < Pad; ++z) {
                    const int s = acc.isActive(corner + Coord(x, y, z)) ? 1 : 0;
                    mSolid[(x * Pad + y) * Pad + z] = uint8_t(s);
                    sum(x + 1, y + 1, z + 1) = s + sum(x, y + 1, z + 1) + sum(x + 1, y, z + 1) + sum(x + 1, y + 1, z) -
                                               sum(x, y, z + 1) - sum(x, y + 1, z) - sum(x + 1, y, z) + sum(x, y, z);
                }
        return sum(Pad, Pad, Pad) > 0;
    }
    /// Solid voxels in the box of half-width r around (x, y, z) (padded coordinates).
    int count(int x, int y, int z, int r) const
    {
        const int a = x - r, b = y - r, c = z - r, d = x + r + 1, e = y + r + 1, f = z + r + 1;
        return at(d, e, f) - at(a, e, f) - at(d, b, f) - at(d, e, c) + at(a, b, f) + at(a, e, c) + at(d, b, c) -
               at(a, b, c);
    }
    bool solid(int x, int y, int z) const { return mSolid[(x * Pad + y) * Pad + z] != 0; }

private:
    int& sum(int x, int y, int z) { return mSums[(x * Sums + y) * Sums + z]; }
    int at(int x, int y, int z) const { return mSums[(x * Sums + y) * Sums + z]; }
    std::array<uint8_t, Pad * Pad * Pad> mSolid{};
    std::array<int, Sums * Sums * Sums> mSums{};
};

} // namespace

std::shared_ptr<const ObstacleSurface> buildObstacleSurface(const nanovdb::GridHandle<nanovdb::HostBuffer>& solidHandle)
{
    if (!solidHandle.data()) return nullptr;
    const SolidGrid* solid = solidHandle.grid<nanovdb::ValueOnIndex>();
    if (!solid) throw std::invalid_argument("the obstacle surface needs an OnIndex grid of solid voxels");
    if (solid->activeVoxelCount() == 0) return nullptr;
    auto acc = solid->getAccessor();
    std::vector<Coord> coords;
    std::vector<float> values;
    PaddedLeaf block;
    for (const Coord& origin : candidateLeaves(*solid)) {
        if (!block.load(acc, origin - Coord(BandReach))) continue;
        for (int x = BandReach; x < BandReach + Leaf; ++x)
            for (int y = BandReach; y < BandReach + Leaf; ++y)
                for (int z = BandReach; z < BandReach + Leaf; ++z) {
                    if (block.count(x, y, z, BandReach) == 0) continue;
                    const float own = block.solid(x, y, z) ? 0.5f : -0.5f;
                    const float mean = float(block.count(x, y, z, 1)) / 27.f;
                    coords.push_back(origin + Coord(x - BandReach, y - BandReach, z - BandReach));
                    values.push_back(0.5f * (own + mean - 0.5f));
                }
    }
    auto surface = std::make_shared<ObstacleSurface>();
    surface->band = indexGridFromCoords(coords);
    const auto* band = surface->band.grid<nanovdb::ValueOnIndex>();
    surface->occupancy.assign(band->valueCount(), -0.5f);
    auto bandAcc = band->getAccessor();
    for (size_t n = 0; n < coords.size(); ++n)
        surface->occupancy[bandAcc.getValue(coords[n])] = values[n];
    const auto box = band->indexBBox();
    for (int a = 0; a < 3; ++a)
        surface->boxMin[a] = float(box.min()[a]), surface->boxMax[a] = float(box.max()[a] + 1);
    return surface;
}

} // namespace vbm::render
