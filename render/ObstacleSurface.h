// SPDX-License-Identifier: Apache-2.0
// The mesh obstacles as the renderer draws them: a smooth surface built once per scene on the
// host from the solid voxels the solver uses (ActiveRegion::solid), so the picture shows exactly
// the walls the solver simulates. docs/render.md ("Mesh obstacles") says why it is built this way.
#pragma once

#include <nanovdb/GridHandle.h>
#include <nanovdb/HostBuffer.h>

#include <memory>
#include <vector>

namespace vbm::render {

/// A narrow band around the solid voxels and a smoothed occupancy on it. The shaders
/// interpolate the occupancy trilinearly (voxel (i,j,k) at the centre (i+0.5, j+0.5, k+0.5) of
/// the cell it fills, as the field's voxels are drawn) and draw its zero crossing.
struct ObstacleSurface {
    /// Solid voxels dilated by BandReach along each axis (a 5^3 box), OnIndex. Every voxel
    /// outside it has occupancy -0.5, and so has every trilinear sample in a cell outside it.
    nanovdb::GridHandle<nanovdb::HostBuffer> band;
    /// One value per value index of `band` (index 0, the outside, holds -0.5):
    /// (s + m - 0.5) / 2, with s = +-0.5 the voxel's own solid indicator and m the mean solid
    /// indicator over its 3^3 neighbourhood. Its sign at every voxel is solid or not (a lone voxel
    /// is drawn), it is antisymmetric across a flat wall (the zero lies on the voxel faces), and m
    /// makes its gradient, the normal, smooth over staircases. In [-0.5, 0.5].
    std::vector<float> occupancy;
    float boxMin[3] = {0, 0, 0}, boxMax[3] = {0, 0, 0}; ///< the band's index box, [min, max + 1)
};

inline constexpr int BandReach = 2;

/// The surface of the active voxels of `solid` (an OnIndex grid); null when it has none (an
/// empty handle included). Throws std::invalid_argument for a grid that is not OnIndex.
std::shared_ptr<const ObstacleSurface> buildObstacleSurface(const nanovdb::GridHandle<nanovdb::HostBuffer>& solid);

} // namespace vbm::render
