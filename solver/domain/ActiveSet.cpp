// SPDX-License-Identifier: Apache-2.0
// The host form of the active-set rule (see ActiveSet.h). A bitmap over the set's bounding box
// (seeds and emitters, grown by the margin, cut to the region's box), one bit per voxel, rows
// of 64-bit words along z: the dilation is separable (an L-infinity ball is a cube), one voxel
// per pass along z (shifts), y and x (neighbouring rows).
#include "domain/ActiveSet.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace vbm::solver {

namespace {

class Bitmap {
public:
    Bitmap(const nanovdb::CoordBBox& box) : mLo(box.min())
    {
        for (int a = 0; a < 3; ++a)
            mDim[a] = int64_t(box.max()[a]) - box.min()[a] + 1;
        mWords = (mDim[2] + 63) / 64;
        // 2^34 bits (2 GiB): an open box's first set (its emitters' bounding box) stays
        // affordable on a small machine, whatever a scene's far-apart balls claim
        const double bits = double(mDim[0]) * double(mDim[1]) * double(mWords) * 64;
        if (bits > double(uint64_t(1) << 34))
            throw std::runtime_error("the active set's bounding box is too large for the CPU builder (" +
                                     std::to_string(mDim[0]) + "x" + std::to_string(mDim[1]) + "x" +
                                     std::to_string(mDim[2]) + " voxels)");
        mBits.assign(size_t(mDim[0] * mDim[1] * mWords), 0);
    }
    bool contains(const nanovdb::Coord& c) const
    {
        for (int a = 0; a < 3; ++a)
            if (c[a] < mLo[a] || int64_t(c[a]) - mLo[a] >= mDim[a]) return false;
        return true;
    }
    void set(const nanovdb::Coord& c)
    {
        const int64_t z = c[2] - mLo[2];
        row(c[0] - mLo[0], c[1] - mLo[1])[z >> 6] |= uint64_t(1) << (z & 63);
    }
    /// One voxel of dilation along each axis.
    void dilateOnce()
    {
        const uint64_t lastMask = mDim[2] % 64 ? (uint64_t(1) << (mDim[2] % 64)) - 1 : ~uint64_t(0);
        for (int64_t x = 0; x < mDim[0]; ++x)
            for (int64_t y = 0; y < mDim[1]; ++y) {
                uint64_t* r = row(x, y);
                uint64_t carryDown = 0; // the bit shifted out of the previous word (towards +z)
                for (int64_t k = 0; k < mWords; ++k) {
                    const uint64_t w = r[k];
                    const uint64_t next = k + 1 < mWords ? r[k + 1] : 0;
                    r[k] = w | (w << 1) | (w >> 1) | carryDown | (next << 63);
                    carryDown = w >> 63;
                }
                r[mWords - 1] &= lastMask;
            }
        spread(1), spread(0);
    }
    template <typename F>
    void forEach(F&& f) const
    {
        for (int64_t x = 0; x < mDim[0]; ++x)
            for (int64_t y = 0; y < mDim[1]; ++y) {
                const uint64_t* r = &mBits[size_t((x * mDim[1] + y) * mWords)];
                for (int64_t k = 0; k < mWords; ++k)
                    for (uint64_t w = r[k]; w; w &= w - 1)
                        f(nanovdb::Coord(int(mLo[0] + x), int(mLo[1] + y), int(mLo[2] + k * 64 + std::countr_zero(w))));
            }
    }

private:
    uint64_t* row(int64_t x, int64_t y) { return &mBits[size_t((x * mDim[1] + y) * mWords)]; }
    /// Every row ORed with its neighbours along axis a (0: x, 1: y), from a copy.
    void spread(int a)
    {
        const std::vector<uint64_t> old = mBits;
        const int64_t stride = a == 0 ? mDim[1] * mWords : mWords;
        for (int64_t x = 0; x < mDim[0]; ++x)
            for (int64_t y = 0; y < mDim[1]; ++y) {
                const int64_t at = a == 0 ? x : y;
                const size_t base = size_t((x * mDim[1] + y) * mWords);
                for (int64_t k = 0; k < mWords; ++k) {
                    uint64_t w = old[base + k];
                    if (at > 0) w |= old[base + k - stride];
                    if (at + 1 < mDim[a]) w |= old[base + k + stride];
                    mBits[base + k] = w;
                }
            }
    }

    nanovdb::Coord mLo;
    int64_t mDim[3] = {0, 0, 0};
    int64_t mWords = 0;
    std::vector<uint64_t> mBits;
};

/// The bounding box of the seeds and the emitters' voxels, grown by margin, cut to the region's
/// box grown by margin (a seed outside the box may still reach into it).
nanovdb::CoordBBox setBounds(const std::vector<nanovdb::Coord>& seeds, int margin, const ActiveRegion& region)
{
    int64_t lo[3] = {INT64_MAX, INT64_MAX, INT64_MAX}, hi[3] = {INT64_MIN, INT64_MIN, INT64_MIN};
    for (const auto& c : seeds)
        for (int a = 0; a < 3; ++a)
            lo[a] = std::min<int64_t>(lo[a], int64_t(c[a]) - margin),
            hi[a] = std::max<int64_t>(hi[a], int64_t(c[a]) + margin);
    for (const Ball& b : region.emitters) {
        const double c[3] = {b.x, b.y, b.z};
        for (int a = 0; a < 3; ++a)
            lo[a] = std::min<int64_t>(lo[a], int64_t(std::floor(c[a] - b.r))),
            hi[a] = std::max<int64_t>(hi[a], int64_t(std::ceil(c[a] + b.r)));
    }
    if (region.emitting) {
        const nanovdb::CoordBBox e = region.emitting.grid<nanovdb::ValueOnIndex>()->indexBBox();
        for (int a = 0; a < 3; ++a)
            lo[a] = std::min<int64_t>(lo[a], e.min()[a]), hi[a] = std::max<int64_t>(hi[a], e.max()[a]);
    }
    nanovdb::CoordBBox box;
    for (int a = 0; a < 3; ++a) {
        box.min()[a] = int(std::max<int64_t>(lo[a], int64_t(region.box.min()[a]) - margin));
        box.max()[a] = int(std::min<int64_t>(hi[a], int64_t(region.box.max()[a]) + margin));
        if (box.min()[a] > box.max()[a]) throw std::runtime_error("the adaptive scene's active set is empty");
    }
    return box;
}

} // namespace

std::vector<nanovdb::Coord> emitterVoxels(const ActiveRegion& region)
{
    const RegionView view = hostRegionView(region);
    std::vector<nanovdb::Coord> out;
    for (const Ball& b : region.emitters)
        for (int x = int(std::floor(b.x - b.r)); x <= int(std::ceil(b.x + b.r)); ++x)
            for (int y = int(std::floor(b.y - b.r)); y <= int(std::ceil(b.y + b.r)); ++y)
                for (int z = int(std::floor(b.z - b.r)); z <= int(std::ceil(b.z + b.r)); ++z) {
                    const nanovdb::Coord c(x, y, z);
                    if (insideBall(b, c) && view.allows(c)) out.push_back(c);
                }
    if (view.emitting)
        for (uint32_t i = 0; i < view.emitting->tree().nodeCount(0); ++i)
            for (auto on = leaves(view.emitting)[i].valueMask().beginOn(); on; ++on) {
                const nanovdb::Coord c = leaves(view.emitting)[i].offsetToGlobalCoord(*on);
                if (view.allows(c)) out.push_back(c);
            }
    return out;
}

ActiveRegion copyOf(const ActiveRegion& region)
{
    ActiveRegion r;
    r.box = region.box;
    if (region.within) r.within = region.within.copy<nanovdb::HostBuffer>();
    r.obstacles = region.obstacles, r.emitters = region.emitters;
    if (region.solid) r.solid = region.solid.copy<nanovdb::HostBuffer>();
    if (region.emitting) r.emitting = region.emitting.copy<nanovdb::HostBuffer>();
    return r;
}

RegionView hostRegionView(const ActiveRegion& region)
{
    return {region.box.min(),
            region.box.max(),
            region.within ? region.within.grid<nanovdb::ValueOnIndex>() : nullptr,
            region.obstacles.data(),
            uint32_t(region.obstacles.size()),
            region.emitters.data(),
            uint32_t(region.emitters.size()),
            region.solid ? region.solid.grid<nanovdb::ValueOnIndex>() : nullptr,
            region.emitting ? region.emitting.grid<nanovdb::ValueOnIndex>() : nullptr};
}

HostGridHandle activeSetOnHost(const std::vector<nanovdb::Coord>& seeds, int margin, const ActiveRegion& region)
{
    Bitmap bits(setBounds(seeds, margin, region));
    for (const auto& c : seeds)
        if (bits.contains(c)) bits.set(c);
    for (int k = 0; k < margin; ++k)
        bits.dilateOnce();
    const RegionView view = hostRegionView(region);
    std::vector<nanovdb::Coord> coords;
    // the emitters join after the dilation (they are not dilated)
    for (const nanovdb::Coord& c : emitterVoxels(region)) // they join after the dilation
        if (bits.contains(c)) bits.set(c);
    bits.forEach([&](const nanovdb::Coord& c) {
        if (view.allows(c)) coords.push_back(c);
    });
    if (coords.empty()) throw std::runtime_error("the adaptive scene's active set is empty");
    if (coords.size() >= (uint64_t(1) << 31))
        throw std::runtime_error("the active set would hold " + std::to_string(coords.size()) +
                                 " voxels, over the 2^31-voxel limit");
    return indexGridFromCoords(coords);
}

} // namespace vbm::solver
