// SPDX-License-Identifier: Apache-2.0
// Built-in OnIndex grids: the benchmark sphere shell and the test topologies. Every grid
// is leaf-only (no indexed tiles, no stats), so it satisfies vbm::checkVbmGrid().
#pragma once

#include <nanovdb/GridHandle.h>
#include <nanovdb/HostBuffer.h>
#include <nanovdb/NanoVDB.h>

#include <cstdint>
#include <functional>
#include <vector>

namespace vbm {

using HostGridHandle = nanovdb::GridHandle<nanovdb::HostBuffer>;

/// Set-up progress: what is being built and the fraction done (SceneBuildHooks::progress).
using BuildProgress = std::function<void(const char* what, double fraction)>;

/// An OnIndex grid whose active voxels are exactly `coords` (duplicates allowed).
HostGridHandle indexGridFromCoords(const std::vector<nanovdb::Coord>& coords, const BuildProgress& progress = {});

/// Voxels whose centre distance r from `centre` satisfies radius - thickness/2 <= r < radius + thickness/2.
HostGridHandle makeSphereShell(double radius, double thickness, nanovdb::Coord centre = nanovdb::Coord(0),
                               const BuildProgress& progress = {});

/// The benchmark's small shell: about 1.29M active voxels in about 9,100 leaves (141/512 per leaf).
HostGridHandle makeBenchmarkShell();

/// Random sparse topology: leaves of a leafExtent^3 region (starting at leaf coordinate
/// -leafExtent/2, so coordinates are negative and positive) are present with probability
/// leafFraction; each voxel of a present leaf is active with probability occupancy.
HostGridHandle makeRandomSparse(int leafExtent, double leafFraction, double occupancy, uint64_t seed);

/// One leaf at `origin` with the given voxel occupancy (at least one voxel).
HostGridHandle makeSingleLeaf(nanovdb::Coord origin, double occupancy, uint64_t seed);

/// Half-full 16^3-voxel cubes centred on every point of {-4096, -128, 0, 128, 4096}^3: leaves
/// on both sides of lower (128) and upper (4096) internal-node boundaries, and of zero.
HostGridHandle makeNodeBoundaryCubes(uint64_t seed);

/// Leaves holding 1 to maxPerLeaf voxels each, so a block spans many leaves and the cached
/// resolvers' fallback (more than MaxCachedLeaves leaves per block) runs.
HostGridHandle makeSparseLeaves(int leafCount, int maxPerLeaf, uint64_t seed);

} // namespace vbm
