// SPDX-License-Identifier: Apache-2.0
// The active-set rule of adaptive scenes on the host (docs/adaptive.md): what a scene's first
// open-domain topology and every CPU rebuild come from. The CUDA backend builds the same set
// on the device (CudaTopology.cuh); a test compares the two voxel for voxel.
#pragma once

#include "ActiveRegion.h"
#include "kernels/ActiveSetBodies.h"

#include <vector>

namespace vbm::solver {

/// `seeds` dilated by `margin` voxels (the L-infinity ball: every voxel within margin along each
/// axis), joined with the emitters' voxels, kept where the region allows them. Throws
/// std::runtime_error when the set is empty or over the 2^31-voxel limit.
HostGridHandle activeSetOnHost(const std::vector<nanovdb::Coord>& seeds, int margin, const ActiveRegion& region);

/// The voxels of the region's emitter balls that it allows, in x, y, z order.
std::vector<nanovdb::Coord> emitterVoxels(const ActiveRegion& region);

/// A deep copy (the grid too), for what outlives the scene.
ActiveRegion copyOf(const ActiveRegion& region);

/// The region with its arrays and grid in host memory (valid while `region` is).
RegionView hostRegionView(const ActiveRegion& region);

} // namespace vbm::solver
