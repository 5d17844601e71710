// SPDX-License-Identifier: Apache-2.0
// Grids built a leaf at a time (see GridGenerators.h): voxels grouped into 512-bit leaf masks,
// then one builder leaf per mask. Placing a billion voxels one by one in NanoVDB's builder took
// most of a big domain's set-up; a leaf at a time it is 512 times fewer placements.
#include "GridGenerators.h"
#include "vbm/HostBlockExecutor.h"

#include <nanovdb/tools/CreateNanoGrid.h>
#include <nanovdb/tools/GridBuilder.h>

#include <algorithm>
#include <unordered_map>

namespace vbm {

namespace {

struct CoordHash {
    size_t operator()(const nanovdb::Coord& c) const
    {
        return size_t(uint32_t(c[0])) * 73856093u ^ size_t(uint32_t(c[1])) * 19349663u ^
               size_t(uint32_t(c[2])) * 83492791u;
    }
};

/// Leaves in first-seen order, with an index by origin so repeated origins join their masks.
class LeafTable {
public:
    nanovdb::Mask<3>& at(const nanovdb::Coord& origin)
    {
        auto [it, added] = mIndex.try_emplace(origin, mLeaves.size());
        if (added) mLeaves.push_back({origin, nanovdb::Mask<3>()});
        return mLeaves[it->second].mask;
    }
    LeafVoxelList take() { return std::move(mLeaves); }

private:
    std::unordered_map<nanovdb::Coord, size_t, CoordHash> mIndex;
    LeafVoxelList mLeaves;
};

using IndexLeaf = nanovdb::NanoLeaf<nanovdb::ValueOnIndex>;

nanovdb::Coord leafOrigin(const nanovdb::Coord& c) { return c & ~int(IndexLeaf::MASK); }

/// Voxel n of the leaf at `origin`.
nanovdb::Coord voxelOf(const nanovdb::Coord& origin, uint32_t n) { return origin + IndexLeaf::OffsetToLocalCoord(n); }

} // namespace

HostGridHandle indexGridFromLeaves(const LeafVoxelList& leaves, const BuildProgress& progress)
{
    using BuildLeaf = nanovdb::tools::build::LeafNode<float>;
    nanovdb::tools::build::Grid<float> grid(0.f);
    auto acc = grid.getAccessor();
    constexpr size_t Chunk = size_t(1) << 16;
    for (size_t n = 0; n < leaves.size(); ++n) {
        if (progress && n % Chunk == 0) progress("placing leaves in the grid builder", double(n) / double(leaves.size()));
        const LeafVoxels& l = leaves[n];
        const uint32_t first = l.mask.findFirst<true>();
        if (first == 512) continue;
        const nanovdb::Coord c = voxelOf(l.origin, first);
        // setValue makes the leaf (and its parents) and returns it. The other voxels' values
        // stay 0: an index grid without channels keeps only the mask.
        BuildLeaf* leaf = acc.setValue(c, 1.f);
        leaf->mValueMask |= l.mask;
    }
    if (progress) progress("converting to a NanoVDB index grid", 0.0);
    // channels 0, no stats, no tile values: leaves are indexed contiguously from 1.
    return nanovdb::tools::createNanoGrid<nanovdb::tools::build::Grid<float>, nanovdb::ValueOnIndex>(grid, 0u, false,
                                                                                                     false);
}

LeafVoxelList leavesOfCoords(const std::vector<nanovdb::Coord>& coords)
{
    LeafTable table;
    nanovdb::Mask<3>* last = nullptr;
    nanovdb::Coord lastOrigin;
    for (const nanovdb::Coord& c : coords) {
        const nanovdb::Coord o = leafOrigin(c);
        if (!last || o != lastOrigin) last = &table.at(o), lastOrigin = o; // runs along z share a leaf
        last->setOn(IndexLeaf::CoordToOffset(c));
    }
    return table.take();
}

LeafVoxelList leavesOfShape(const nanovdb::CoordBBox& box, const std::function<bool(const nanovdb::Coord&)>& inside,
                            const BuildProgress& progress)
{
    if (box.empty()) return {};
    const nanovdb::Coord lo = leafOrigin(box.min()), hi = leafOrigin(box.max());
    const size_t slabs = size_t((int64_t(hi[0]) - lo[0]) / 8 + 1);
    std::vector<LeafVoxelList> bySlab(slabs);
    auto slab = [&](uint64_t s) {
        const int x0 = lo[0] + int(8 * s);
        for (int y0 = lo[1]; y0 <= hi[1]; y0 += 8)
            for (int z0 = lo[2]; z0 <= hi[2]; z0 += 8) {
                LeafVoxels l{nanovdb::Coord(x0, y0, z0), nanovdb::Mask<3>()};
                for (uint32_t n = 0; n < IndexLeaf::SIZE; ++n) {
                    const nanovdb::Coord c = voxelOf(l.origin, n);
                    if (box.isInside(c) && inside(c)) l.mask.setOn(n);
                }
                if (!l.mask.isOff()) bySlab[s].push_back(l);
            }
    };
    // In rounds, so progress is reported from this thread while the others work.
    const size_t round = std::max<size_t>(1, slabs / 20);
    for (size_t first = 0; first < slabs; first += round) {
        if (progress) progress("listing the domain's voxels", double(first) / double(slabs));
        const size_t count = std::min(round, slabs - first);
        forEachBlockOnHost(first, first + count, slab); // threads take the next slab when free
    }
    if (progress) progress("listing the domain's voxels", 1.0);
    LeafVoxelList out;
    size_t total = 0;
    for (const LeafVoxelList& s : bySlab)
        total += s.size();
    out.reserve(total);
    for (LeafVoxelList& s : bySlab)
        out.insert(out.end(), s.begin(), s.end()), LeafVoxelList().swap(s);
    return out;
}

LeafVoxelList coarsenedLeaves(const nanovdb::NanoGrid<nanovdb::ValueOnIndex>* grid)
{
    // A fine leaf's voxels c >> 1 fall in one coarse leaf: a 4^3 corner of it. Each fine leaf's
    // part is found in parallel, then the parts are joined by coarse origin.
    const uint32_t count = grid->tree().nodeCount(0);
    const auto* fine = grid->tree().getFirstNode<0>();
    LeafVoxelList parts(count);
    forEachBlockOnHost(0, count, [&](uint64_t i) {
        const nanovdb::Coord half = fine[i].origin() >> 1;
        LeafVoxels& p = parts[i];
        p.origin = leafOrigin(half);
        p.mask = nanovdb::Mask<3>();
        for (auto on = fine[i].valueMask().beginOn(); on; ++on)
            p.mask.setOn(IndexLeaf::CoordToOffset(half + (IndexLeaf::OffsetToLocalCoord(*on) >> 1)));
    });
    LeafTable table;
    for (const LeafVoxels& p : parts)
        table.at(p.origin) |= p.mask;
    return table.take();
}

LeafVoxelList leavesOfGrid(const nanovdb::NanoGrid<nanovdb::ValueOnIndex>* grid)
{
    const uint32_t count = grid->tree().nodeCount(0);
    const auto* leaf = grid->tree().getFirstNode<0>();
    LeafVoxelList out(count);
    for (uint32_t i = 0; i < count; ++i)
        out[i] = {leaf[i].origin(), leaf[i].valueMask()};
    return out;
}

void clearVoxels(LeafVoxelList& leaves, const std::function<bool(const nanovdb::Coord&)>& cleared)
{
    forEachBlockOnHost(0, leaves.size(), [&](uint64_t i) {
        LeafVoxels& l = leaves[i];
        for (auto on = l.mask.beginOn(); on; ++on)
            if (cleared(voxelOf(l.origin, *on))) l.mask.setOff(*on);
    });
}

uint64_t voxelCount(const LeafVoxelList& leaves)
{
    uint64_t n = 0;
    for (const LeafVoxels& l : leaves)
        n += l.mask.countOn();
    return n;
}

nanovdb::CoordBBox voxelBounds(const LeafVoxelList& leaves)
{
    nanovdb::CoordBBox box; // empty
    for (const LeafVoxels& l : leaves) {
        if (l.mask.isOff()) continue;
        // Only leaves that could move a face of the box need their voxels visited.
        const nanovdb::CoordBBox leafBox(l.origin, l.origin + nanovdb::Coord(7));
        if (!box.empty() && box.isInside(leafBox)) continue;
        for (auto on = l.mask.beginOn(); on; ++on)
            box.expand(voxelOf(l.origin, *on));
    }
    return box;
}

} // namespace vbm
