// SPDX-License-Identifier: Apache-2.0
// Adaptive topology on the CUDA backend (docs/adaptive.md). The device builder (NanoVDB 13's
// tools, CudaTopology.cuh) against the host one on the same grid and fields, voxel for voxel;
// the device-built VBM and coarse grids against the host builds; then, through the public API,
// resolver and width identity with adaptation on, and 1,000 steps of smoke-open. GPU tests: they
// skip, saying why, where no CUDA GPU is usable.
#include "AdaptChecks.h"
#include "exec/CudaExec.cuh"
#include "domain/CudaTopology.cuh"
#include "DeviceQueries.h"
#include "domain/HostTopology.h"
#include "Solver.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <set>

// Inside the namespace, not `using namespace vbm`: vbm::cuda would make the ::cuda of the
// generated device stubs ambiguous.
namespace vbm::solver {

namespace {

#define SKIP_WITHOUT_GPU()                                                                                             \
    if (const std::string why = cudaUnavailableReason(); !why.empty()) GTEST_SKIP() << "GPU test skipped: " << why

/// A field with values above and below the threshold in a fixed pattern of the coordinates.
std::vector<float> pattern(const IndexGrid* g, int channel)
{
    std::vector<float> f(vbmExtent(g, 7).lastOffset + 1, 0.f);
    for (uint32_t l = 0; l < g->tree().nodeCount(0); ++l)
        for (auto on = leaves(g)[l].valueMask().beginOn(); on; ++on) {
            const auto c = leaves(g)[l].offsetToGlobalCoord(*on);
            const int h = (c[0] * 73856093 ^ c[1] * 19349663 ^ c[2] * 83492791 ^ channel * 2654435) & 1023;
            f[leaves(g)[l].getValue(*on)] = h < 40 ? 0.5f : 0.001f * float(h % 50);
        }
    return f;
}

} // namespace

TEST(GpuAdapt, DeviceDilationEqualsTheHostsForEveryMargin)
{
    SKIP_WITHOUT_GPU();
    // two clusters of voxels, one where eight root tiles meet (the origin), one at a tile's far
    // corner; every seventh voxel a seed. Joined: a small ball elsewhere.
    std::mt19937 rng(7);
    std::uniform_int_distribution<int> offset(-20, 20);
    const nanovdb::Coord centres[2] = {nanovdb::Coord(0, 0, 0), nanovdb::Coord(4095, 4090, -4097)};
    std::vector<nanovdb::Coord> voxels, seeds[2], joined;
    for (int k = 0; k < 2; ++k)
        for (int i = 0; i < 3000; ++i) {
            const nanovdb::Coord c = centres[k].offsetBy(offset(rng), offset(rng), offset(rng));
            voxels.push_back(c);
            if (i % 7 == 0) seeds[k].push_back(c);
        }
    for (int x = -3; x <= 3; ++x)
        for (int y = -3; y <= 3; ++y)
            for (int z = -3; z <= 3; ++z)
                if (x * x + y * y + z * z <= 9) joined.push_back(nanovdb::Coord(100 + x, -50 + y, 30 + z));
    const HostGridHandle src = indexGridFromCoords(voxels), join = indexGridFromCoords(joined);
    const IndexGrid* s = src.grid<nanovdb::ValueOnIndex>();
    const IndexGrid* j = join.grid<nanovdb::ValueOnIndex>();
    std::vector<LeafMask> masks(s->tree().nodeCount(0));
    for (int k = 0; k < 2; ++k)
        for (const nanovdb::Coord& c : seeds[k]) {
            const IndexLeaf* l = s->tree().root().probeLeaf(c);
            masks[l - leaves(s)].setOn(IndexLeaf::CoordToOffset(c));
        }
    std::vector<nanovdb::Coord> joinTiles;
    for (uint32_t t = 0; t < j->tree().root().tileCount(); ++t)
        joinTiles.push_back(j->tree().root().tile(t)->origin());
    auto dsrc = src.copy<nanovdb::cuda::DeviceBuffer>();
    auto djoin = join.copy<nanovdb::cuda::DeviceBuffer>();
    dsrc.buffer().deviceUpload(cudaStream_t(0), true), djoin.buffer().deviceUpload(cudaStream_t(0), true);
    cuda::DeviceArray<LeafMask> dmasks(masks.size());
    ASSERT_EQ(cudaMemcpy(dmasks.data(), masks.data(), masks.size() * sizeof(LeafMask), cudaMemcpyHostToDevice),
              cudaSuccess);
    ActiveRegion everywhere;
    everywhere.box = nanovdb::CoordBBox(nanovdb::Coord(-MaxOpenCoord), nanovdb::Coord(MaxOpenCoord));
    for (int margin : {0, 1, 3, 7, 8, 9, 13, 17}) {
        Dilated d = dilateBy(static_cast<const IndexGrid*>(dsrc.buffer().deviceData()), s->tree().nodeCount(0),
                             dmasks.data(), margin, static_cast<const IndexGrid*>(djoin.buffer().deviceData()),
                             j->tree().nodeCount(0), joinTiles, 0);
        d.grid.buffer().deviceDownload(cudaStream_t(0), true);
        const IndexGrid* b = d.grid.grid<nanovdb::ValueOnIndex>();
        ASSERT_NE(b, nullptr);
        EXPECT_EQ(checkVbmGrid(b), "") << "margin " << margin;
        EXPECT_EQ(b->tree().nodeCount(0), d.leafCount);
        // the host's bitmap dilation, cluster by cluster (they are far apart), and the ball
        std::set<std::array<int, 3>> want = voxelSet(j);
        for (int k = 0; k < 2; ++k) {
            const HostGridHandle h = activeSetOnHost(seeds[k], margin, everywhere);
            const auto part = voxelSet(h.grid<nanovdb::ValueOnIndex>());
            want.insert(part.begin(), part.end());
        }
        EXPECT_EQ(voxelSet(b), want) << "margin " << margin;
    }
}

TEST(GpuAdapt, DeviceTopologyEqualsTheHostsVoxelForVoxel)
{
    SKIP_WITHOUT_GPU();
    const Scene scene = loadScene("smoke-open");
    const IndexGrid* g = scene.grid.grid<nanovdb::ValueOnIndex>();
    std::vector<float> host[5];
    for (int k = 0; k < 5; ++k)
        host[k] = pattern(g, k);
    for (int margin : {0, 2, 5}) {
        // the host
        HostExec hexec;
        ExecGrid<HostExec> hgrid(scene.grid);
        TopologyBuilder<HostExec> hb(hexec, scene.region, hostRegionView(scene.region));
        const SeedTest hseed{host[0].data(), host[1].data(), host[2].data(), host[3].data(),
                             host[4].data(), 0.1f,           0.3f,           {0.f, 0.f, 0.f}};
        ExecGrid<HostExec> hnew = hb.execGrid(hb.build(hgrid, hseed, margin));
        // the device
        CudaExec dexec;
        ExecRegion<CudaExec> region(scene.region);
        ExecGrid<CudaExec> dgrid(scene.grid);
        CudaExec::Array<float> dev[5];
        for (int k = 0; k < 5; ++k) {
            dev[k] = CudaExec::allocate<float>(host[k].size());
            CudaExec::upload(dev[k], host[k]);
        }
        TopologyBuilder<CudaExec> db(dexec, scene.region, region.view());
        const SeedTest dseed{dev[0].data(), dev[1].data(), dev[2].data(), dev[3].data(),
                             dev[4].data(), 0.1f,          0.3f,          {0.f, 0.f, 0.f}};
        ExecGrid<CudaExec> dnew = db.execGrid(db.build(dgrid, dseed, margin));
        const HostGridHandle back = dnew.hostCopy();
        const IndexGrid* b = back.grid<nanovdb::ValueOnIndex>();
        ASSERT_NE(b, nullptr);
        EXPECT_EQ(checkVbmGrid(b), "") << "margin " << margin;
        EXPECT_EQ(voxelSet(b), voxelSet(hnew.grid())) << "margin " << margin;
        EXPECT_EQ(dnew.activeVoxels(), hnew.activeVoxels());
        // the device-built VBM equals the host build of the same grid, at both widths
        for (int L : {7, 9}) {
            const VbmMetadata m = L == 7 ? buildVoxelBlockManagerHost<7>(b) : buildVoxelBlockManagerHost<9>(b);
            const VbmView& v = dnew.view(L);
            ASSERT_EQ(v.blockCount, m.extent.blockCount);
            std::vector<uint32_t> first(v.blockCount);
            std::vector<uint64_t> jump(m.jumpMap.size());
            ASSERT_EQ(cudaMemcpy(first.data(), v.firstLeafID, first.size() * 4, cudaMemcpyDeviceToHost), cudaSuccess);
            ASSERT_EQ(cudaMemcpy(jump.data(), v.jumpMap, jump.size() * 8, cudaMemcpyDeviceToHost), cudaSuccess);
            EXPECT_EQ(first, m.firstLeafID) << "width " << (1 << L);
            EXPECT_EQ(jump, m.jumpMap) << "width " << (1 << L);
        }
        // CoarsenGrid's level equals the host's c >> 1
        const HostGridHandle coarse = db.coarsen(dnew).hostCopy();
        EXPECT_EQ(voxelSet(coarse.grid<nanovdb::ValueOnIndex>()),
                  voxelSet(MultigridHierarchy<HostExec>::coarsened(b).grid<nanovdb::ValueOnIndex>()));
    }
}

TEST(GpuAdapt, EveryResolverAndWidthGivesTheSameFieldsWithAdaptationOn)
{
    SKIP_WITHOUT_GPU();
    expectSameFieldsWithAdaptation(Backend::Cuda,
                                   {Resolver::NanoVDB13, Resolver::computeBoxStencil, Resolver::forEachBoxStencil,
                                    Resolver::computeBoxStencilCached, Resolver::forEachBoxStencilCached,
                                    Resolver::computeCrossStencil, Resolver::computeCrossStencilCached});
}

TEST(GpuAdapt, SmokeOpenRuns1000StepsLikeTheCpu)
{
    SKIP_WITHOUT_GPU();
    Solver gpu(loadScene("smoke-open"), Backend::Cuda), cpu(loadScene("smoke-open"), Backend::Cpu);
    for (int k = 0; k < 1000; ++k) {
        const FrameTimings& t = gpu.step();
        ASSERT_LT(t.divergenceAfter, 1e-4) << "step " << k;
        ASSERT_LE(t.find(Phase::PressureCg)->iterations, 12) << "step " << k; // the open-air bound
        if (k < 40) cpu.step();
        if (k == 39) // the two backends' sets agree within 2% (their fields agree within rounding)
            EXPECT_NEAR(double(gpu.activeVoxels()), double(cpu.activeVoxels()), 0.02 * double(cpu.activeVoxels()));
    }
    for (const std::string& name : gpu.fieldNames())
        for (float v : gpu.field(name))
            ASSERT_TRUE(std::isfinite(v)) << name;
    EXPECT_EQ(gpu.topologyVersion(), uint64_t(999 / loadScene("smoke-open").adapt.every));
}

} // namespace vbm::solver
