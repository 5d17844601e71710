// SPDX-License-Identifier: Apache-2.0
// Checks shared by the CPU and GPU tests of adaptive scenes (test_adapt.cpp, test_adapt_gpu.cu).
#pragma once

#include "Solver.h"
#include "vbm/VoxelBlockManager.h"

#include <gtest/gtest.h>

#include <array>
#include <set>
#include <vector>

namespace vbm {

/// The active voxels of a grid (in host memory), as coordinates.
inline std::set<std::array<int, 3>> voxelSet(const IndexGrid* g)
{
    std::set<std::array<int, 3>> s;
    for (uint32_t i = 0; i < g->tree().nodeCount(0); ++i)
        for (auto on = leaves(g)[i].valueMask().beginOn(); on; ++on) {
            const auto c = leaves(g)[i].offsetToGlobalCoord(*on);
            s.insert({c[0], c[1], c[2]});
        }
    return s;
}

/// smoke-open after 13 steps (a rebuild every K steps) on `backend`: the same fields' hash for
/// every resolver in `resolvers` at both block widths, each running every pass (no tap table).
inline void expectSameFieldsWithAdaptation(Backend backend, const std::vector<Resolver>& resolvers)
{
    Scene scene = loadScene("smoke-open");
    scene.tapTable = TapTableMode::Off;
    uint64_t want = 0;
    for (int width : {7, 9})
        for (Resolver r : resolvers) {
            StencilChoice c;
            c.laplacian = r, c.log2BlockWidth = width;
            Solver s(scene, backend, c);
            for (int k = 0; k < 13; ++k)
                s.step();
            EXPECT_EQ(s.topologyVersion(), uint64_t(12 / scene.adapt.every));
            const uint64_t h = s.fieldsHash();
            if (!want) want = h;
            EXPECT_EQ(h, want) << resolverName(r) << " at width " << (1 << width);
        }
}

} // namespace vbm
