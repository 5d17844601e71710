// SPDX-License-Identifier: Apache-2.0
// The topologies the VBM tests run on, CPU and GPU alike.
#pragma once

#include "GridGenerators.h"

namespace vbm::test {

struct NamedGrid {
    const char* name;
    HostGridHandle (*make)();
};

/// The 1.29M-voxel sphere shell; random sparse leaves at 16% and 60% occupancy; a single
/// leaf; cubes across zero and the 128/4096 internal-node boundaries in every octant; leaves
/// of 1-4 voxels, so blocks span more than 16 leaves and the cached forms fall back.
inline const NamedGrid TestGrids[] = {
    {"SphereShell", [] { return makeBenchmarkShell(); }},
    {"RandomSparse16", [] { return makeRandomSparse(20, 0.35, 0.16, 11); }},
    {"RandomSparse60", [] { return makeRandomSparse(20, 0.35, 0.60, 12); }},
    {"SingleLeaf", [] { return makeSingleLeaf(nanovdb::Coord(-8, 16, -24), 0.4, 13); }},
    {"NodeBoundaries", [] { return makeNodeBoundaryCubes(14); }},
    {"SparseLeavesFallback", [] { return makeSparseLeaves(6000, 4, 15); }},
};

} // namespace vbm::test
