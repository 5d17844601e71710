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

/// One leaf's active voxels: its origin (a multiple of 8 on each axis) and the mask of its 512
/// voxels in NanoVDB's order (bit x * 64 + y * 8 + z). Building a grid a leaf at a time, not a
/// voxel at a time, is what makes a billion-voxel domain take seconds.
struct LeafVoxels {
    nanovdb::Coord origin;
    nanovdb::Mask<3> mask;
};
using LeafVoxelList = std::vector<LeafVoxels>;

/// An OnIndex grid whose active voxels are exactly those of `leaves` (an origin may appear more
/// than once: its masks are joined). Byte for byte the grid indexGridFromCoords makes of the
/// same voxels.
HostGridHandle indexGridFromLeaves(const LeafVoxelList& leaves, const BuildProgress& progress = {});

/// `coords` grouped by leaf (duplicates allowed).
LeafVoxelList leavesOfCoords(const std::vector<nanovdb::Coord>& coords);

/// The voxels c of `box` (both corners included) for which inside(c) holds, grouped by leaf, in
/// the order of the leaves' origins (x, then y, then z). `inside` is called from several threads.
LeafVoxelList leavesOfShape(const nanovdb::CoordBBox& box, const std::function<bool(const nanovdb::Coord&)>& inside,
                            const BuildProgress& progress = {});

/// The voxels c >> 1 of the active voxels of `grid`, grouped by leaf: the next multigrid level.
LeafVoxelList coarsenedLeaves(const nanovdb::NanoGrid<nanovdb::ValueOnIndex>* grid);

/// The active voxels of `grid`, grouped by leaf.
LeafVoxelList leavesOfGrid(const nanovdb::NanoGrid<nanovdb::ValueOnIndex>* grid);

/// Clears the voxels c of `leaves` for which cleared(c) holds (called from several threads).
void clearVoxels(LeafVoxelList& leaves, const std::function<bool(const nanovdb::Coord&)>& cleared);

/// How many voxels `leaves` hold (repeated origins must not overlap).
uint64_t voxelCount(const LeafVoxelList& leaves);

/// The bounding box of the voxels of `leaves` (empty when they hold none).
nanovdb::CoordBBox voxelBounds(const LeafVoxelList& leaves);

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
