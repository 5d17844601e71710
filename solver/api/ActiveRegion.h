// SPDX-License-Identifier: Apache-2.0
// Where an adaptive scene's voxels may be active, and how its active set follows the smoke
// (the `domain open` and `adapt` statements, assets/scenes/README.md). The rule itself is in
// docs/adaptive.md; the host builder of it is activeSetOnHost() (ActiveSet.h), the device one
// the CUDA backend's topology builder.
#pragma once

#include "GridGenerators.h"

#include <nanovdb/NanoVDB.h>

#include <vector>

namespace vbm {

/// A ball in voxel coordinates: a voxel is inside when its distance to the centre is below r.
struct Ball {
    double x = 0, y = 0, z = 0, r = 0;
};

/// `adapt every K margin M threshold T [speed S]`: before every K-th step the active set is
/// rebuilt from the voxels whose density, temperature or fuel exceeds T (with `speed S`, also
/// those whose speed, the largest face-velocity component relative to the wind, exceeds S
/// times the largest), dilated by the margin (at least M, widened to the flow: docs/adaptive.md),
/// joined with the emitters, kept inside the region and out of the obstacles.
struct Adaptation {
    int every = 0; ///< K; 0: the topology never changes
    int margin = 0;
    double threshold = 0;
    /// `... speed S`: speed seeds too, above S times the largest speed; below 0 (the default):
    /// speed seeds nothing (in incompressible flow speed is nonzero almost everywhere, so a
    /// speed-seeded set grows with the air: docs/adaptive.md).
    double speedThreshold = -1;
    bool seedsBySpeed() const { return speedThreshold >= 0; }
    /// False: the scene keeps its air cells and open boundaries but never rebuilds (a frozen
    /// adaptive scene, Solver::snapshot: the fixed-topology step on the same active voxels).
    bool rebuilds = true;
    bool enabled() const { return every > 0; }
};

/// The smallest margin: one voxel for the trilinear sample's reach past the smoke, one for the
/// layer of air cells (pressure 0) around the active set.
inline constexpr int MinAdaptMargin = 2;

/// Coordinates of an open box stay within +-MaxOpenCoord, so a dilated or neighbouring
/// coordinate never overflows an int.
inline constexpr int MaxOpenCoord = 1 << 30;

/// Where voxels may be active: inside `box`, where `within` is active (loaded domains; empty
/// for an open one), outside every obstacle. The emitters are always active (within the rest).
/// Mesh obstacles and emitters (`remove mesh`, `emitter mesh`) are voxel sets: leaf-only
/// OnIndex grids whose active voxels are the meshes' insides (the union of every such line).
struct ActiveRegion {
    nanovdb::CoordBBox box; ///< inclusive bounds
    HostGridHandle within;  ///< the loaded domain's grid, or empty (`domain open`)
    std::vector<Ball> obstacles, emitters;
    HostGridHandle solid;    ///< every mesh obstacle's voxels, or empty
    HostGridHandle emitting; ///< every mesh emitter's voxels, or empty
};

} // namespace vbm
