// SPDX-License-Identifier: Apache-2.0
// Kernel bodies of a topology rebuild (adaptive scenes, docs/adaptive.md), shared by both
// backends: which voxels seed the new active set, whether a coordinate may be active (the
// region), which active voxels are air cells (a face neighbour is inactive open space), the
// remap of fields by coordinate, and the emitter channel on a new topology.
//
// Air cells: an active voxel with an inactive face neighbour that lies in the region (not an
// obstacle, not past the box's faces) is an air cell. Its pressure is held at 0 (Dirichlet) and
// its faces towards that open space carry its own velocity out. Every other inactive neighbour
// is a solid wall (Neumann), as in every fixed-topology scene. air[i] holds the open faces as
// bits (bit t - 1 for cross tap t: -x, +x, -y, +y, -z, +z), stored as a float; 0: not air.
#pragma once

#include "ActiveRegion.h"
#include "kernels/ScalarPairs.h"
#include "vbm/VoxelBlockManager.h"

#include <cstdint>

namespace vbm::solver {

/// a * b + c rounded twice, on the device too (no contraction into an FMA), so host and device
/// agree on every ball test.
__hostdev__ inline double mulAddRn(double a, double b, double c)
{
#if defined(__CUDA_ARCH__)
    return __dadd_rn(__dmul_rn(a, b), c);
#else
    return a * b + c;
#endif
}

/// Whether voxel c lies inside the ball: squared distance below r^2, summed x, y, z.
__hostdev__ inline bool insideBall(const Ball& b, const nanovdb::Coord& c)
{
    const double dx = c[0] - b.x, dy = c[1] - b.y, dz = c[2] - b.z;
    return mulAddRn(dz, dz, mulAddRn(dy, dy, mulAddRn(dx, dx, 0.0))) < mulAddRn(b.r, b.r, 0.0);
}

/// The region in executor memory (ActiveRegion's arrays and grid there).
struct RegionView {
    nanovdb::Coord lo, hi;   ///< the box, inclusive
    const IndexGrid* within; ///< null: the box alone
    const Ball* obstacles;
    uint32_t obstacleCount;
    const Ball* emitters;
    uint32_t emitterCount;
    const IndexGrid* solid;    ///< the mesh obstacles' voxels, or null
    const IndexGrid* emitting; ///< the mesh emitters' voxels, or null

    /// Whether voxel c may be active.
    __hostdev__ bool allows(const nanovdb::Coord& c) const
    {
        for (int a = 0; a < 3; ++a)
            if (c[a] < lo[a] || c[a] > hi[a]) return false;
        if (within && !within->tree().isActive(c)) return false;
        for (uint32_t k = 0; k < obstacleCount; ++k)
            if (insideBall(obstacles[k], c)) return false;
        return !(solid && solid->tree().isActive(c));
    }
    __hostdev__ bool inEmitter(const nanovdb::Coord& c) const
    {
        for (uint32_t k = 0; k < emitterCount; ++k)
            if (insideBall(emitters[k], c)) return true;
        return emitting && emitting->tree().isActive(c);
    }
};

/// Whether voxel i holds smoke: density, temperature or fuel (null: none) above the threshold.
/// The one definition the seeds and the edge watch share.
__hostdev__ inline bool holdsSmoke(const ScalarPairs& scalars, const float* fuel, float threshold, uint64_t i)
{
    const DensityTemperature d = scalars.load(i);
    return d.density > threshold || d.temperature > threshold || (fuel && fuel[i] > threshold);
}

/// The seed test: density, temperature or fuel above the threshold: the active set follows the
/// smoke, not the air (docs/adaptive.md). With a scene's `adapt ... speed S`, also a face
/// velocity component whose difference from the scene's wind (zero: still air) is above
/// speedLimit, S times the largest such difference (relative to the wind, so a uniform wind
/// alone seeds nothing); without it speedLimit is infinite.
struct SeedTest {
    ScalarPairs scalars; ///< density and temperature
    const float *u, *v, *w;
    float threshold, speedLimit;
    float wind[3];
    const float* fuel = nullptr; ///< fire scenes' fuel (null: none)
    __hostdev__ bool operator()(uint64_t i) const
    {
        if (holdsSmoke(scalars, fuel, threshold, i)) return true;
        const float s = fmaxf(fabsf(u[i] - wind[0]), fmaxf(fabsf(v[i] - wind[1]), fabsf(w[i] - wind[2])));
        return s > speedLimit;
    }
};

/// 1 where the density exceeds the threshold (an element sum of it counts the voxels that hold
/// smoke: the timings' smoke_voxels, which the active set's size is measured against).
struct DensityAbove {
    ScalarPairs scalars;
    float threshold;
    __hostdev__ double operator()(uint64_t i) const { return scalars.load(i).density > threshold ? 1.0 : 0.0; }
};

/// 1 at an air cell (the set's open edge) whose density, temperature or fuel exceeds the
/// threshold: smoke the margin did not keep inside the set, which the next step's early rebuild
/// takes in (ActiveSetRebuild::watchEdge). air: the Domain's air cells (nonzero at one).
struct SmokeAtEdge {
    ScalarPairs scalars;
    const float* fuel; ///< null: none
    const float* air;
    float threshold;
    __hostdev__ double operator()(uint64_t i) const
    {
        return air[i] != 0.f && holdsSmoke(scalars, fuel, threshold, i) ? 1.0 : 0.0;
    }
};

/// out[i] = in[i] - value (the velocity relative to the wind, for its largest component).
struct SubtractValue {
    const float* in;
    float* out;
    float value;
    __hostdev__ void operator()(uint64_t i) const { out[i] = in[i] - value; }
};

/// The coordinate of a decoded voxel.
__hostdev__ inline nanovdb::Coord voxelCoord(const IndexGrid* g, uint32_t leafIndex, uint16_t voxelOffset)
{
    return leaves(g)[leafIndex].offsetToGlobalCoord(voxelOffset);
}

/// Air bits of every voxel of `grid` (see the file comment). A voxel body.
struct MarkAirCells {
    const IndexGrid* grid;
    RegionView region;
    float* air;
    __hostdev__ void operator()(uint64_t i, uint32_t leafIndex, uint16_t voxelOffset) const
    {
        const nanovdb::Coord c = voxelCoord(grid, leafIndex, voxelOffset);
        uint32_t bits = 0;
        for (int t = 0; t < 6; ++t) {
            nanovdb::Coord n = c;
            n[t / 2] += (t & 1) ? 1 : -1;
            if (!grid->tree().isActive(n) && region.allows(n)) bits |= 1u << t;
        }
        air[i] = float(bits);
    }
};

/// Whether the face towards cross tap t (1..6) of an air cell is open (air may be null).
__hostdev__ inline bool openFace(const float* air, uint64_t i, int t)
{
    return air && (uint32_t(air[i]) >> (t - 1) & 1u);
}

/// For every voxel of `to`, its value index in `from` (0: it is new). A voxel body.
struct OldIndexOf {
    const IndexGrid* from;
    const IndexGrid* to;
    uint64_t* oldIndex;
    __hostdev__ void operator()(uint64_t i, uint32_t leafIndex, uint16_t voxelOffset) const
    {
        oldIndex[i] = from->tree().getValue(voxelCoord(to, leafIndex, voxelOffset));
    }
};

/// out[i] = in[oldIndex[i]], or `ambient` for a new voxel: retained voxels keep their bits.
struct CopyRemapped {
    const uint64_t* oldIndex;
    const float* in;
    float* out;
    float ambient;
    __hostdev__ void operator()(uint64_t i) const { out[i] = oldIndex[i] ? in[oldIndex[i]] : ambient; }
};

/// Bit i of a bit array (word i / 32, bit i % 32): the emitter's form in Fields.
__hostdev__ inline bool flagAt(const uint32_t* bits, uint64_t i) { return (bits[i >> 5] >> (i & 31)) & 1u; }

/// Packs from[i] != 0 for i in [0, n) into bits, one word per call: word w - 1 for body index
/// w (element passes start at 1), run over [1, n / 32 + 2). Whole words, so no two calls write
/// one word. An element body.
struct PackFlags {
    const float* from;
    uint32_t* bits;
    uint64_t n;
    __hostdev__ void operator()(uint64_t w) const
    {
        const uint64_t first = (w - 1) * 32;
        uint32_t word = 0;
        for (uint32_t b = 0; b < 32 && first + b < n; ++b)
            if (first + b > 0 && from[first + b] != 0.f) word |= 1u << b; // index 0 is the background
        bits[w - 1] = word;
    }
};

/// The emitter on a topology: 1 inside an emitter ball, else 0 (then packed by PackFlags). A voxel body.
struct MarkEmitters {
    const IndexGrid* grid;
    RegionView region;
    float* emitter;
    __hostdev__ void operator()(uint64_t i, uint32_t leafIndex, uint16_t voxelOffset) const
    {
        emitter[i] = region.inEmitter(voxelCoord(grid, leafIndex, voxelOffset)) ? 1.f : 0.f;
    }
};

/// x[i] = 0 where voxel i is an air cell (the pressure's Dirichlet value).
struct ZeroAirCells {
    const float* air;
    float* x;
    __hostdev__ void operator()(uint64_t i) const
    {
        if (air[i] != 0.f) x[i] = 0.f;
    }
};

} // namespace vbm::solver
