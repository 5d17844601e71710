// The multigrid's last levels in one launch (solver/kernels/CoarseTail.h): the V-cycle with them
// gives bitwise the preconditioned vector of one launch per pass, on a domain where the tail
// holds two levels and the levels above it run as before; and the tail starts where the
// workspace limit says.
#include "Domain.h"
#include "GridGenerators.h"
#include "HostExec.h"
#include "Multigrid.h"

#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <vector>

using namespace vbm;
using namespace vbm::solver;

namespace {

/// A ball of radius 40 less a slab wall with a hole: levels of about 33K, 4.2K, 520 and 65 voxels.
HostGridHandle ballWithWall()
{
    std::vector<nanovdb::Coord> c;
    for (int x = -40; x <= 40; ++x)
        for (int y = -40; y <= 40; ++y)
            for (int z = -40; z <= 40; ++z)
                if (x * x + y * y + z * z <= 1600 && !(x == 5 && y * y + z * z > 100)) c.emplace_back(x, y, z);
    return indexGridFromCoords(c);
}

struct VCycleRig {
    HostExec exec;
    StencilRunner<HostExec> run{exec, StencilChoice{}};
    Domain<HostExec> domain;
    Multigrid<HostExec> multigrid{run, domain};
    explicit VCycleRig(const HostGridHandle& g) : domain(run, g, true) {}

    /// z = M r for r of fixed random values.
    std::vector<float> precondition(uint32_t seed)
    {
        const uint64_t n = domain.valueCount();
        std::vector<float> r(n, 0.f), z(n, 0.f), sweep(n, 0.f), residual(n, 0.f), coarse(n, 0.f);
        std::mt19937 rng(seed);
        std::uniform_real_distribution<float> u(-1.f, 1.f);
        for (uint64_t i = 1; i < n; ++i)
            r[i] = u(rng);
        multigrid.precondition(z.data(), r.data(), sweep.data(), residual.data(), coarse.data(), nullptr, false);
        return z;
    }
};

bool sameBits(const std::vector<float>& a, const std::vector<float>& b)
{
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

} // namespace

TEST(CoarseTail, OneLaunchGivesTheBitsOfOneLaunchPerPass)
{
    VCycleRig s(ballWithWall());
    const auto& levels = s.domain.levels();
    ASSERT_EQ(levels.size(), 4u);
    EXPECT_EQ(s.multigrid.tailStart(), 3u) << "levels of " << levels[0].n << ", " << levels[1].n << ", " << levels[2].n
                                           << ", " << levels[3].n << " values";
    const std::vector<float> tail = s.precondition(7);
    s.multigrid.setTailWords(0);
    EXPECT_EQ(s.multigrid.tailStart(), 0u);
    const std::vector<float> launches = s.precondition(7);
    EXPECT_TRUE(sameBits(tail, launches));
    double norm = 0;
    for (float v : tail)
        norm += double(v) * v;
    EXPECT_GT(norm, 0.0);
    // a tail of three levels, from level 2
    s.multigrid.setTailWords(CoarseTail::levelWords(levels[1].n, false) + CoarseTail::levelWords(levels[2].n, false) +
                             CoarseTail::levelWords(levels[3].n, true));
    EXPECT_EQ(s.multigrid.tailStart(), 2u);
    EXPECT_TRUE(sameBits(s.precondition(7), launches));
}

TEST(CoarseTail, PhasesFollowTheVCycle)
{
    CoarseTail t;
    t.levels = 2, t.coarsestSweeps = 4;
    t.level[0].n = 10, t.level[1].n = 3;
    ASSERT_TRUE(t.plan(1));
    // staging 3 per level; level 0: restrict, 2 sweeps, residual; level 1: restrict, 6 coarsest
    // steps; up: prolong from 1, 3 sweeps of 0, prolong from 0
    EXPECT_EQ(t.phaseCount(), 6 + 4 + 7 + 4 + 1);
    EXPECT_EQ(t.level[1].at, CoarseTail::levelWords(10, false));
    EXPECT_EQ(t.words, CoarseTail::levelWords(10, false) + CoarseTail::levelWords(3, true));
    EXPECT_EQ(t.level[1].at % 2, 0u);
    EXPECT_EQ(t.phase[t.phaseCount() - 1].op, CoarseTail::Prolong);
    EXPECT_EQ(t.phase[t.phaseCount() - 1].level, 0);
    EXPECT_EQ(t.end(0), 60u); // level 0's neighbours: 6 per value
    EXPECT_EQ(t.begin(6), 1u);
}
