// SPDX-License-Identifier: Apache-2.0
// vbm-bench --backend cpu's OpenVDB peers (see OpenVdbPeers.h). Our NanoVDB leaves and OpenVDB's have
// the same 8^3 layout at the same origins (both trees are 5-4-3), so a voxel's offset in its
// leaf is the same number on both sides: the grids are filled and read back leaf by leaf.
#include "OpenVdbPeers.h"

#include "vbm/TreeWalkStencils.h"

#include <stdexcept>

#if defined(VBM_HAVE_OPENVDB)
#include <openvdb/openvdb.h>
#include <openvdb/tools/Filter.h>
#include <openvdb/tools/GridOperators.h>
#include <openvdb/tree/LeafManager.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cmath>
#endif

namespace bench {

namespace {

enum Peer { AccessorCross, AccessorBox, ToolsLaplacian, FilterMean };

const std::vector<std::string> PeerNames = {"openvdb-accessor-cross", "openvdb-accessor-box",
                                            "openvdb-tools-laplacian", "openvdb-filter-mean"};

} // namespace

const std::vector<std::string>& OpenVdbPeers::names() { return PeerNames; }

const char* OpenVdbPeers::shape(int peer)
{
    return peer == AccessorCross || peer == ToolsLaplacian ? "7-pt cross" : "27-tap box";
}

#if defined(VBM_HAVE_OPENVDB)

namespace {

using openvdb::Coord;
using openvdb::FloatGrid;
using FloatTree = openvdb::FloatTree;
using LeafManager = openvdb::tree::LeafManager<FloatTree>;

/// Relative tolerance of the tools' outputs: a few float roundings of sums of about 30 terms.
constexpr double ToolTolerance = 1e-5;

Coord leafOrigin(const vbm::IndexLeaf& leaf)
{
    const nanovdb::Coord o = leaf.origin();
    return Coord(o[0], o[1], o[2]);
}

} // namespace

struct OpenVdbPeers::Impl {
    const vbm::IndexGrid* grid;
    const std::vector<float>* sidecar;
    int channels;
    std::vector<FloatGrid::Ptr> in, sum, laplacian, filtered; ///< one per channel
    std::vector<std::unique_ptr<LeafManager>> sumLeaves;

    /// out[index * C + ch] = grids[ch]'s value at the voxel of index.
    std::vector<float> toOurs(const std::vector<FloatGrid::Ptr>& grids) const
    {
        std::vector<float> out(sidecar->size(), 0.f);
        const uint32_t n = grid->tree().nodeCount(0);
        const vbm::IndexLeaf* leaves = grid->tree().getFirstNode<0>();
        tbb::parallel_for(tbb::blocked_range<uint32_t>(0, n), [&](const tbb::blocked_range<uint32_t>& r) {
            for (uint32_t l = r.begin(); l != r.end(); ++l)
                for (int ch = 0; ch < channels; ++ch) {
                    const auto* theirs = grids[ch]->tree().probeConstLeaf(leafOrigin(leaves[l])); // once per leaf
                    for (auto it = leaves[l].data()->mValueMask.beginOn(); it; ++it)
                        out[leaves[l].data()->getValue(uint32_t(*it)) * channels + ch] =
                            theirs ? theirs->getValue(*it) : 0.f;
                }
        });
        return out;
    }

    /// The hand-written peers: per voxel of the output's leaves, the taps' values through one
    /// thread-local ValueAccessor per channel, summed in our tap order.
    template <bool Box>
    void accessorSum()
    {
        tbb::parallel_for(sumLeaves[0]->leafRange(), [&](const LeafManager::LeafRange& range) {
            std::vector<FloatGrid::ConstAccessor> acc;
            for (int ch = 0; ch < channels; ++ch)
                acc.push_back(in[ch]->getConstAccessor());
            for (auto leaf = range.begin(); leaf; ++leaf) {
                const size_t li = leaf.pos();
                for (auto it = leaf->cbeginValueOn(); it; ++it) {
                    const Coord c = it.getCoord();
                    for (int ch = 0; ch < channels; ++ch) {
                        auto& a = acc[ch];
                        float s = 0.f;
                        if constexpr (Box) {
                            for (int di = -1; di <= 1; ++di)
                                for (int dj = -1; dj <= 1; ++dj)
                                    for (int dk = -1; dk <= 1; ++dk)
                                        s += a.getValue(c.offsetBy(di, dj, dk));
                        } else {
                            s += a.getValue(c);
                            s += a.getValue(c.offsetBy(-1, 0, 0));
                            s += a.getValue(c.offsetBy(1, 0, 0));
                            s += a.getValue(c.offsetBy(0, -1, 0));
                            s += a.getValue(c.offsetBy(0, 1, 0));
                            s += a.getValue(c.offsetBy(0, 0, -1));
                            s += a.getValue(c.offsetBy(0, 0, 1));
                        }
                        sumLeaves[ch]->leaf(li).setValueOnly(it.pos(), s);
                    }
                }
            }
        });
    }
};

bool OpenVdbPeers::available() { return true; }
std::string OpenVdbPeers::version() { return std::string("OpenVDB ") + OPENVDB_LIBRARY_VERSION_STRING; }

OpenVdbPeers::OpenVdbPeers(const vbm::IndexGrid* grid, const std::vector<float>& sidecar, int channels)
    : mImpl(std::make_unique<Impl>())
{
    openvdb::initialize();
    Impl& m = *mImpl;
    m.grid = grid;
    m.sidecar = &sidecar;
    m.channels = channels;
    const uint32_t leafCount = grid->tree().nodeCount(0);
    const vbm::IndexLeaf* leaves = grid->tree().getFirstNode<0>();
    for (int ch = 0; ch < channels; ++ch) {
        FloatGrid::Ptr g = FloatGrid::create(0.f);
        auto acc = g->getAccessor();
        for (uint32_t l = 0; l < leafCount; ++l) {
            auto* leaf = acc.touchLeaf(leafOrigin(leaves[l]));
            for (auto it = leaves[l].data()->mValueMask.beginOn(); it; ++it)
                leaf->setValueOn(*it, sidecar[leaves[l].data()->getValue(uint32_t(*it)) * channels + ch]);
        }
        m.in.push_back(g);
        FloatGrid::Ptr out = FloatGrid::create(0.f);
        out->tree().topologyUnion(g->tree());
        m.sum.push_back(out);
        m.sumLeaves.push_back(std::make_unique<LeafManager>(out->tree()));
    }
    m.laplacian.resize(channels);
    m.filtered.resize(channels);
}

OpenVdbPeers::~OpenVdbPeers() = default;

void OpenVdbPeers::prepare(int peer)
{
    if (peer != FilterMean) return;
    for (int ch = 0; ch < mImpl->channels; ++ch)
        mImpl->filtered[ch] = mImpl->in[ch]->deepCopy();
}

void OpenVdbPeers::run(int peer)
{
    Impl& m = *mImpl;
    switch (peer) {
    case AccessorCross:
        m.accessorSum<false>();
        break;
    case AccessorBox:
        m.accessorSum<true>();
        break;
    case ToolsLaplacian:
        for (int ch = 0; ch < m.channels; ++ch)
            m.laplacian[ch] = openvdb::tools::laplacian(*m.in[ch]);
        break;
    case FilterMean:
        for (int ch = 0; ch < m.channels; ++ch) {
            if (!m.filtered[ch]) throw std::logic_error("openvdb-filter-mean ran without prepare()");
            openvdb::tools::Filter<FloatGrid> filter(*m.filtered[ch]);
            filter.mean(1, 1);
        }
        break;
    default:
        throw std::invalid_argument("no OpenVDB peer " + std::to_string(peer));
    }
}

PeerCheck OpenVdbPeers::check(int peer, const std::vector<float>& crossSum, const std::vector<float>& boxSum) const
{
    const Impl& m = *mImpl;
    const int C = m.channels;
    PeerCheck r;
    if (peer == AccessorCross || peer == AccessorBox) {
        const std::vector<float>& want = peer == AccessorCross ? crossSum : boxSum;
        const std::vector<float> got = m.toOurs(m.sum);
        r.rule = "bitwise (our tap order)";
        for (size_t i = C; i < got.size(); ++i, ++r.compared)
            r.mismatches += got[i] != want[i];
        return r;
    }
    const bool lap = peer == ToolsLaplacian;
    const std::vector<float> got = m.toOurs(lap ? m.laplacian : m.filtered);
    const auto& side = *m.sidecar;
    // The laplacian is (sum of 6 neighbours) - 6 centre: ours is that + 7 centre. The filter
    // averages along x, z, y in turn over active voxels only, so it equals our box sum / 27
    // only where all 27 taps are active: compared there. Errors are relative to the terms'
    // magnitudes (the values have both signs, so a sum may cancel to near 0).
    r.rule = lap ? "|lap + 7c - ours| <= 1e-5 (sum of |taps| + 7|c|)"
                 : "|27 mean - ours| <= 1e-5 sum of |taps|, voxels with 27 active taps";
    auto acc = m.grid->getAccessor();
    const int taps = lap ? 7 : 27;
    uint64_t tapIndex[27];
    for (uint32_t l = 0; l < m.grid->tree().nodeCount(0); ++l) {
        const vbm::IndexLeaf& leaf = m.grid->tree().getFirstNode<0>()[l];
        for (auto it = leaf.data()->mValueMask.beginOn(); it; ++it) {
            const uint64_t index = leaf.data()->getValue(uint32_t(*it));
            const nanovdb::Coord c = leaf.offsetToGlobalCoord(*it);
            bool full = true;
            for (int t = 0; t < taps; ++t) {
                const int b = lap ? vbm::boxTapOfCrossTap(t) : t; // the tap's place in the 3x3x3 box
                const nanovdb::Coord d(b / 9 - 1, b / 3 % 3 - 1, b % 3 - 1);
                tapIndex[t] = acc.getValue(c + d);
                full = full && tapIndex[t] != 0;
            }
            if (!lap && !full) continue;
            for (int ch = 0; ch < C; ++ch, ++r.compared) {
                // the error's scale: the magnitudes of the terms the sums add
                double scale = 0;
                for (int t = 0; t < taps; ++t)
                    scale += std::abs(side[tapIndex[t] * C + ch]);
                const double ours = (lap ? crossSum : boxSum)[index * C + ch];
                const double centre = side[index * C + ch];
                const double theirs = lap ? double(got[index * C + ch]) + 7 * centre : 27.0 * got[index * C + ch];
                if (lap) scale += 7 * std::abs(centre);
                const double err = std::abs(theirs - ours) / std::max(scale, 1e-30);
                r.maxRelativeError = std::max(r.maxRelativeError, err);
                r.mismatches += err > ToolTolerance;
            }
        }
    }
    return r;
}

#else // built without OpenVDB

struct OpenVdbPeers::Impl {};
bool OpenVdbPeers::available() { return false; }
std::string OpenVdbPeers::version() { return ""; }
OpenVdbPeers::OpenVdbPeers(const vbm::IndexGrid*, const std::vector<float>&, int)
{
    throw std::logic_error("vbm-bench was built without OpenVDB");
}
OpenVdbPeers::~OpenVdbPeers() = default;
void OpenVdbPeers::prepare(int) {}
void OpenVdbPeers::run(int) {}
PeerCheck OpenVdbPeers::check(int, const std::vector<float>&, const std::vector<float>&) const { return {}; }

#endif

} // namespace bench
