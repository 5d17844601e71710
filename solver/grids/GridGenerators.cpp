// SPDX-License-Identifier: Apache-2.0
// Built-in OnIndex grids (see GridGenerators.h).
#include "GridGenerators.h"

#include <algorithm>
#include <cmath>
#include <random>

namespace vbm {

HostGridHandle indexGridFromCoords(const std::vector<nanovdb::Coord>& coords, const BuildProgress& progress)
{
    if (progress) progress("grouping the voxels by leaf", 0.0);
    return indexGridFromLeaves(leavesOfCoords(coords), progress);
}

HostGridHandle makeSphereShell(double radius, double thickness, nanovdb::Coord centre, const BuildProgress& progress)
{
    std::vector<nanovdb::Coord> coords;
    const double rIn = radius - thickness / 2, rOut = radius + thickness / 2;
    const int b = int(std::ceil(rOut)) + 1;
    for (int i = -b; i <= b; ++i) {
        if (progress) progress("listing the domain's voxels", double(i + b) / double(2 * b + 1));
        for (int j = -b; j <= b; ++j) {
            const double r2 = double(i) * i + double(j) * j;
            if (r2 >= rOut * rOut) continue;
            // Only the two k intervals that cut the shell are visited: |k| in [kIn-1, kOut+1].
            const double kOut = std::sqrt(rOut * rOut - r2);
            const int kHi = int(kOut) + 1;
            const int kLo = r2 < rIn * rIn ? std::max(0, int(std::sqrt(rIn * rIn - r2)) - 1) : 0;
            for (int k = -kHi; k <= kHi; ++k) {
                if (k > -kLo && k < kLo) k = kLo;
                const double r = std::sqrt(r2 + double(k) * k);
                if (r >= rIn && r < rOut) coords.emplace_back(centre[0] + i, centre[1] + j, centre[2] + k);
            }
        }
    }
    return indexGridFromCoords(coords, progress);
}

HostGridHandle makeBenchmarkShell() { return makeSphereShell(160.0, 4.0); }

HostGridHandle makeRandomSparse(int leafExtent, double leafFraction, double occupancy, uint64_t seed)
{
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> u(0.0, 1.0);
    std::vector<nanovdb::Coord> coords;
    const int l0 = -leafExtent / 2;
    for (int li = l0; li < l0 + leafExtent; ++li)
        for (int lj = l0; lj < l0 + leafExtent; ++lj)
            for (int lk = l0; lk < l0 + leafExtent; ++lk) {
                if (u(rng) >= leafFraction) continue;
                bool any = false;
                for (int n = 0; n < 512; ++n)
                    if (u(rng) < occupancy || (n == 511 && !any)) {
                        coords.emplace_back(li * 8 + (n >> 6), lj * 8 + ((n >> 3) & 7), lk * 8 + (n & 7));
                        any = true;
                    }
            }
    return indexGridFromCoords(coords);
}

HostGridHandle makeSingleLeaf(nanovdb::Coord origin, double occupancy, uint64_t seed)
{
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> u(0.0, 1.0);
    std::vector<nanovdb::Coord> coords;
    for (int n = 0; n < 512; ++n)
        if (u(rng) < occupancy || (n == 511 && coords.empty()))
            coords.emplace_back(origin[0] + (n >> 6), origin[1] + ((n >> 3) & 7), origin[2] + (n & 7));
    return indexGridFromCoords(coords);
}

HostGridHandle makeNodeBoundaryCubes(uint64_t seed)
{
    std::mt19937_64 rng(seed);
    std::bernoulli_distribution half(0.5);
    const int centres[] = {-4096, -128, 0, 128, 4096};
    std::vector<nanovdb::Coord> coords;
    for (int ci : centres)
        for (int cj : centres)
            for (int ck : centres)
                for (int i = -8; i < 8; ++i)
                    for (int j = -8; j < 8; ++j)
                        for (int k = -8; k < 8; ++k)
                            if (half(rng)) coords.emplace_back(ci + i, cj + j, ck + k);
    return indexGridFromCoords(coords);
}

HostGridHandle makeSparseLeaves(int leafCount, int maxPerLeaf, uint64_t seed)
{
    std::mt19937_64 rng(seed);
    std::uniform_int_distribution<int> perLeaf(1, maxPerLeaf), voxel(0, 511), step(1, 3);
    std::vector<nanovdb::Coord> coords;
    // a winding line of leaves, so consecutive leaves are often, not always, neighbours
    nanovdb::Coord leaf(-40, 0, 0);
    for (int l = 0; l < leafCount; ++l) {
        leaf[l % 3] += step(rng) == 3 ? -1 : 1;
        for (int v = perLeaf(rng); v > 0; --v) {
            const int n = voxel(rng);
            coords.emplace_back(leaf[0] * 8 + (n >> 6), leaf[1] * 8 + ((n >> 3) & 7), leaf[2] * 8 + (n & 7));
        }
    }
    return indexGridFromCoords(coords);
}

} // namespace vbm
