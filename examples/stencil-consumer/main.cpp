// SPDX-License-Identifier: Apache-2.0
// stencil-consumer: the first example of the installed vbm-fluid package (vbm::vbm), on the
// CPU. It builds a small NanoVDB OnIndex grid, the VBM metadata for blocks of 128 voxels,
// and runs the host block skeleton with the cached 7-point cross stencil to take the
// Laplacian of f(x,y,z) = x^2 + y^2 + z^2. It checks every tap against NanoVDB's own
// ReadAccessor, and the Laplacian against its exact value 6 wherever all six neighbours are
// active. Prints one line; exits 0 only if everything matched.
#include <vbm/BlockSkeleton.h>
#include <vbm/BuildVoxelBlockManager.h>

#include <nanovdb/tools/CreateNanoGrid.h>
#include <nanovdb/tools/GridBuilder.h>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace {

constexpr int Log2BlockWidth = 7; // blocks of 128 voxels
constexpr vbm::Resolver Stencil = vbm::Resolver::computeCrossStencilCached;

// Cross tap order of the VBM layer: centre, -x, +x, -y, +y, -z, +z.
const nanovdb::Coord CrossOffsets[vbm::CrossTapCount] = {{0, 0, 0}, {-1, 0, 0}, {1, 0, 0}, {0, -1, 0},
                                                         {0, 1, 0}, {0, 0, -1}, {0, 0, 1}};

// A hollow ball (radii 10 to 20): inner and outer faces, where neighbours are inactive.
nanovdb::GridHandle<nanovdb::HostBuffer> makeHollowBall()
{
    nanovdb::tools::build::Grid<float> shape(0.f);
    auto acc = shape.getAccessor();
    for (int i = -20; i <= 20; ++i)
        for (int j = -20; j <= 20; ++j)
            for (int k = -20; k <= 20; ++k) {
                const int r2 = i * i + j * j + k * k;
                if (r2 >= 10 * 10 && r2 <= 20 * 20) acc.setValue(nanovdb::Coord(i, j, k), 1.f);
            }
    // No value channels, no stats, no tile values: the leaves are indexed contiguously from
    // 1 in leaf order, which a VBM needs (vbm::checkVbmGrid).
    return nanovdb::tools::createNanoGrid<nanovdb::tools::build::Grid<float>, nanovdb::ValueOnIndex>(shape, 0u, false,
                                                                                                     false);
}

} // namespace

int main()
{
    auto handle = makeHollowBall();
    const vbm::IndexGrid* grid = handle.grid<nanovdb::ValueOnIndex>();
    if (const std::string why = vbm::checkVbmGrid(grid); !why.empty()) {
        std::fprintf(stderr, "stencil-consumer: the grid cannot carry a VBM: %s\n", why.c_str());
        return 1;
    }
    const vbm::VbmMetadata meta = vbm::buildVoxelBlockManagerHost<Log2BlockWidth>(grid);
    const vbm::VbmView view = vbm::hostView(grid, meta);

    // Sidecar arrays indexed by value index; index 0 is the background (inactive voxels), 0 here.
    std::vector<double> f(view.valueCount, 0.0), laplacian(view.valueCount, 0.0);

    // Pass 1: the field, from each voxel's coordinate. The skeleton calls the body from
    // several threads at once (one block per thread), each slot once: slot-indexed writes
    // need no lock.
    vbm::forEachSlotOnHost<Log2BlockWidth, Stencil>(view, 0, view.blockCount, [&](const vbm::SlotOf& s, auto&&) {
        const nanovdb::Coord c = vbm::leaves(grid)[s.leafIndex].offsetToGlobalCoord(s.voxelOffset);
        f[s.index] = double(c[0]) * c[0] + double(c[1]) * c[1] + double(c[2]) * c[2];
    });

    // Pass 2: the Laplacian through the stencil, each tap checked against the ReadAccessor.
    std::atomic<uint64_t> voxels{0}, badTaps{0}, interior{0}, badInterior{0};
    vbm::forEachSlotOnHost<Log2BlockWidth, Stencil>(view, 0, view.blockCount, [&](const vbm::SlotOf& s, auto&& taps) {
        const nanovdb::Coord c = vbm::leaves(grid)[s.leafIndex].offsetToGlobalCoord(s.voxelOffset);
        auto acc = grid->getAccessor(); // one per call: an accessor caches nodes, so it is not shared
        double sum = 0.0;
        int activeNeighbours = 0;
        taps([&](int tap, uint64_t index) {
            if (index != acc.getValue(c + CrossOffsets[tap])) ++badTaps;
            if (tap == 0) return;
            sum += f[index];
            activeNeighbours += index != 0;
        });
        laplacian[s.index] = sum - 6.0 * f[s.index];
        ++voxels;
        if (activeNeighbours == 6) {
            ++interior;
            if (laplacian[s.index] != 6.0) ++badInterior;
        }
    });

    const uint64_t active = grid->activeVoxelCount();
    const bool ok = voxels == active && badTaps == 0 && badInterior == 0 && interior > 0;
    std::printf("stencil-consumer: %s: %llu voxels in %llu blocks of %d (%s), %llu taps wrong vs "
                "ReadAccessor, Laplacian 6 at %llu of %llu interior voxels\n",
                ok ? "passed" : "FAILED", (unsigned long long)voxels.load(), (unsigned long long)view.blockCount,
                1 << Log2BlockWidth, vbm::resolverName(Stencil), (unsigned long long)badTaps.load(),
                (unsigned long long)(interior - badInterior), (unsigned long long)interior.load());
    return ok ? 0 : 1;
}
