// Heat and smoke steps written once over an executor (HostExec or CudaExec): the same kernel
// bodies (SolverKernels.h) run on the CPU and on the GPU. Included by SolverCpu.cpp and
// SolverCuda.cu only.
#pragma once

#include "CgState.h"
#include "Scene.h"
#include "SolverKernels.h"
#include "SolverTypes.h"
#include "vbm/VbmView.h"
#include "vbm/BuildVoxelBlockManager.h"
#include "vbm/Resolver.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

namespace vbm::solver {

/// A 32-byte unit, so grid copies keep NanoVDB's data alignment on the host too.
struct alignas(32) GridChunk {
    char bytes[32];
};

/// Calls f(std::integral_constant<int, L>) for the solver's widths, 128 (L = 7) and 512 (L = 9).
template <typename F>
decltype(auto) withSolverWidth(int log2BlockWidth, F&& f)
{
    if (log2BlockWidth == 7) return f(std::integral_constant<int, 7>{});
    if (log2BlockWidth == 9) return f(std::integral_constant<int, 9>{});
    throw std::invalid_argument("block width must be 128 or 512");
}

template <class Exec>
class SolverCore {
    template <typename T>
    using Array = typename Exec::template Array<T>;

public:
    /// A level's VBM at one block width.
    struct Width {
        Array<uint32_t> firstLeafID;
        Array<uint64_t> jumpMap;
        VbmView view;
    };

    SolverCore(const Scene& scene, StencilChoice choice) : mKind(scene.kind), mParams(scene.params)
    {
        const IndexGrid* g = scene.grid.grid<nanovdb::ValueOnIndex>();
        if (!g) throw std::invalid_argument("scene grid is not an OnIndex grid");
        uploadGrid(scene.grid, mGridBytes, mW128, mW512, mMetaBytes);
        mGridByteCount = scene.grid.gridSize();
        mActive = g->activeVoxelCount();
        mN = width(7).view.valueCount;
        setChoice(choice);

        const auto field = [&](const std::vector<float>& init) {
            Array<float> a = Exec::template allocate<float>(mN);
            if (!init.empty()) {
                if (init.size() != mN) throw std::invalid_argument("scene field has the wrong size");
                Exec::upload(a, init);
            }
            mFieldBytes += mN * sizeof(float);
            return a;
        };
        const auto temp = [&] {
            mTempBytes += mN * sizeof(float);
            return Exec::template allocate<float>(mN);
        };
        mT = field(scene.temperature);
        mDiag = field({});
        if (mKind == SimulationKind::Heat) {
            mFixed = field(scene.fixed);
            for (auto& t : mTemp)
                t = temp();     // b, r, z and two directions (explicit uses one)
            mExtra[0] = temp(); // q
            mSolution = temp();
        } else {
            mRho = field(scene.density);
            mEmitter = field(scene.emitter);
            mU = field({}), mV = field({}), mW = field({}), mP = field({});
            for (auto& t : mTemp)
                t = temp();
            for (auto& t : mExtra)
                t = temp();
        }
        mCg = Exec::template allocate<double>(CgStateDoubles);
        mExec.reserve(mN);
        cross<CountNeighbours>(mDiag.data());
        if (mKind == SimulationKind::Smoke && mParams.pressurePreconditioner == Preconditioner::Multigrid)
            buildLevels(scene.grid);
        mExec.synchronize();
    }

    /// Copies a grid and its VBM metadata (both widths) to the executor's memory.
    static void uploadGrid(const HostGridHandle& host, Array<GridChunk>& bytes, Width& w128, Width& w512,
                           uint64_t& metaBytes)
    {
        const IndexGrid* g = host.template grid<nanovdb::ValueOnIndex>();
        const uint64_t size = host.gridSize();
        std::vector<GridChunk> chunks((size + 31) / 32);
        std::memcpy(chunks.data(), host.data(), size);
        bytes = Exec::template allocate<GridChunk>(chunks.size());
        Exec::upload(bytes, chunks);
        for (int l : {7, 9}) {
            const VbmMetadata m = l == 7 ? buildVoxelBlockManagerHost<7>(g) : buildVoxelBlockManagerHost<9>(g);
            Width& w = l == 7 ? w128 : w512;
            w.firstLeafID = Exec::template allocate<uint32_t>(m.firstLeafID.size());
            w.jumpMap = Exec::template allocate<uint64_t>(m.jumpMap.size());
            Exec::upload(w.firstLeafID, m.firstLeafID);
            Exec::upload(w.jumpMap, m.jumpMap);
            w.view.grid = reinterpret_cast<const IndexGrid*>(bytes.data());
            w.view.firstLeafID = w.firstLeafID.data();
            w.view.jumpMap = w.jumpMap.data();
            w.view.firstOffset = m.extent.firstOffset;
            w.view.blockCount = m.extent.blockCount;
            w.view.valueCount = m.extent.lastOffset + 1;
            metaBytes += m.firstLeafID.size() * 4 + m.jumpMap.size() * 8;
        }
    }

    void setChoice(StencilChoice c)
    {
        if (c.log2BlockWidth != 7 && c.log2BlockWidth != 9)
            throw std::invalid_argument("block width must be 128 or 512");
        if (!isBoxResolver(c.advection))
            throw std::invalid_argument(std::string("advection needs a box resolver, not ") +
                                        resolverName(c.advection));
        if (!Exec::OnDevice && (c.laplacian == Resolver::NanoVDB13 || c.advection == Resolver::NanoVDB13))
            throw std::invalid_argument("NanoVDB13 is NanoVDB's CUDA-only reference path: pick another resolver on "
                                        "the CPU backend");
        mChoice = c;
    }
    StencilChoice choice() const { return mChoice; }
    SimulationParams& params() { return mParams; }
    uint64_t activeVoxels() const { return mActive; }
    uint64_t blockCount() const { return width(mChoice.log2BlockWidth).view.blockCount; }

    MemoryReport memory() const
    {
        MemoryReport m;
        m.activeVoxels = mActive;
        m.gridAndVbm = mGridByteCount + mMetaBytes;
        m.fields = mFieldBytes;
        m.temporaries = mTempBytes;
        return m;
    }

    /// Host copy of a field by name: temperature, density, u, v, w, pressure.
    std::vector<float> field(const std::string& name) const { return Exec::download(fieldArray(name)); }
    /// The field's own storage (device memory on CUDA, host memory on the CPU), one float per
    /// value index; valid until the next step, which may swap arrays.
    const float* fieldData(const std::string& name) const { return fieldArray(name).data(); }
    /// The CUDA stream the solver runs on (cudaStream_t), null on the CPU.
    void* cudaStream() const
    {
        if constexpr (Exec::OnDevice)
            return mExec.stream();
        else
            return nullptr;
    }
    const Array<float>& fieldArray(const std::string& name) const
    {
        const Array<float>* a = name == "temperature" ? &mT
                                : name == "density"   ? &mRho
                                : name == "u"         ? &mU
                                : name == "v"         ? &mV
                                : name == "w"         ? &mW
                                : name == "pressure"  ? &mP
                                                      : nullptr;
        if (!a || a->size() == 0) throw std::invalid_argument("no field '" + name + "' in this simulation");
        return *a;
    }
    std::vector<std::string> fieldNames() const
    {
        if (mKind == SimulationKind::Heat) return {"temperature"};
        return {"density", "temperature", "u", "v", "w", "pressure"};
    }

    FrameTimings step()
    {
        mReport = FrameTimings{};
        mSpans.clear();
        const auto t0 = mExec.startTimer();
        if (mKind == SimulationKind::Heat)
            heatStep();
        else
            smokeStep();
        const auto total = mExec.stopTimer(t0);
        if (mKind == SimulationKind::Smoke) measureDivergence();
        mExec.synchronize();
        for (size_t i = 0; i < mSpans.size(); ++i)
            mReport.phases[i].ms = mExec.elapsedMs(mSpans[i]);
        mReport.add(Phase::Step, mExec.elapsedMs(total));
        return mReport;
    }

    /// The largest explicit heat step that is stable: h^2 / (6 alpha).
    double explicitStableDt() const { return mParams.voxelSize * mParams.voxelSize / (6.0 * mParams.alpha); }

private:
    Width& width(int l) { return l == 7 ? mW128 : mW512; }
    const Width& width(int l) const { return l == 7 ? mW128 : mW512; }

    // ---------------------------------------------------------------- dispatch

    /// A cross-type body through the Laplacian resolver at the chosen width.
    template <template <bool> class BodyT, typename... Args>
    void cross(Args... args)
    {
        crossOn<BodyT>(mW128, mW512, args...);
    }

    /// A cross-type body on a given level's VBMs.
    template <template <bool> class BodyT, typename... Args>
    void crossOn(const Width& w128, const Width& w512, Args... args)
    {
        withSolverWidth(mChoice.log2BlockWidth, [&](auto l) {
            constexpr int L = decltype(l)::value;
            withResolver(mChoice.laplacian, [&](auto r) {
                constexpr Resolver R = decltype(r)::value;
                mExec.template stencil<L, R>((L == 7 ? w128 : w512).view, BodyT<isBoxResolver(R)>{args...});
            });
        });
    }

    /// A cross-type body returning a double per voxel, whose sum goes to finish (on the executor).
    template <template <bool> class BodyT, typename Finish, typename... Args>
    void crossSumOn(const Width& w128, const Width& w512, const Finish& finish, Args... args)
    {
        withSolverWidth(mChoice.log2BlockWidth, [&](auto l) {
            constexpr int L = decltype(l)::value;
            withResolver(mChoice.laplacian, [&](auto r) {
                constexpr Resolver R = decltype(r)::value;
                mExec.template stencilSum<L, R>((L == 7 ? w128 : w512).view, BodyT<isBoxResolver(R)>{args...}, finish);
            });
        });
    }

    /// A voxel body (decode only, no resolver) on a given level's VBMs.
    template <typename Body>
    void voxelsOn(const Width& w128, const Width& w512, const Body& body)
    {
        withSolverWidth(mChoice.log2BlockWidth, [&](auto l) {
            constexpr int L = decltype(l)::value;
            mExec.template voxels<L>((L == 7 ? w128 : w512).view, body);
        });
    }

    void advect(const Advect<>& body)
    {
        withSolverWidth(mChoice.log2BlockWidth, [&](auto l) {
            constexpr int L = decltype(l)::value;
            withResolver(mChoice.advection, [&](auto r) {
                constexpr Resolver R = decltype(r)::value;
                if constexpr (isBoxResolver(R))
                    mExec.template stencil<L, R>(width(L).view, body);
                else
                    throw std::invalid_argument("advection needs a box resolver");
            });
        });
    }

    template <typename Body>
    void elements(const Body& body)
    {
        mExec.elements(mN, body);
    }

    /// A phase of the report; its time is read at the end of the step (no wait per phase).
    void phase(Phase name, const typename Exec::Span& span, int iterations = -1, double residual = -1)
    {
        mReport.add(name, 0.0, iterations, residual);
        mSpans.push_back(span);
    }

    template <typename F>
    void timed(Phase name, F&& f)
    {
        const auto t = mExec.startTimer();
        f();
        phase(name, mExec.stopTimer(t));
    }

    // ---------------------------------------------------------------- CG

    /// Preconditioned CG for A x = b with A = shift*I + scale*(-L) restricted as ApplyLaplacian
    /// describes; Jacobi preconditioner shift + scale*neighbours. x is the initial guess. The
    /// scalars stay in executor memory (CgState); the host looks at them only now and then
    /// (checkpoints), which does not change the result since a finished solve skips all launches.
    void conjugateGradients(Phase name, float* x, const float* b, float shift, float scale, const float* fixed,
                            bool multigrid = false)
    {
        const auto t = mExec.startTimer();
        // d ping-pongs between two arrays; q shares the multigrid's first-sweep array (UpdateSolution
        // reads q[i] before it writes the sweep there)
        float *r = mTemp[1].data(), *z = mTemp[2].data(), *dOld = mTemp[3].data(), *d = mTemp[4].data();
        float* q = mExtra[0].data();
        CgState* s = reinterpret_cast<CgState*>(mCg.data());
        crossSumOn<InitialResidualDot>(mW128, mW512, StoreTotal{&s->rr}, x, fixed, b, r, shift, -scale,
                                       fixed != nullptr); // r = b - A x
        mExec.elementsSum(mN, Product{b, b}, StoreTotal{&s->bb});
        // the start, and whether there is anything to do, decided on the device: no host round trip
        mExec.single(StartCg{s, mParams.cgTolerance});
        CgState h{};
        {
            SkipWhenDone skip{mExec, &s->done};
            precondition(r, z, shift, scale, multigrid, s);
            // everything an iteration's launches depend on, for the executor's replay
            std::vector<uint64_t> key{uint64_t(mChoice.laplacian),
                                      uint64_t(mChoice.log2BlockWidth),
                                      uint64_t(multigrid),
                                      std::bit_cast<uint32_t>(shift),
                                      std::bit_cast<uint32_t>(scale),
                                      ptr(x),
                                      ptr(r),
                                      ptr(z),
                                      ptr(dOld),
                                      ptr(d),
                                      ptr(q),
                                      ptr(fixed),
                                      ptr(mExtra[0].data()),
                                      ptr(mExtra[1].data()),
                                      ptr(s)};
            key.push_back(0);
            constexpr size_t dSlot = 8;             // key[8], key[9]: dOld, d (they swap every iteration)
            const size_t partSlot = key.size() - 1; // which half of an iteration
            const bool mg = multigrid && !mLevels.empty();
            // An iteration is two replays: the product A d with the updates of x and r (where the
            // solve may end), then the preconditioner for the next one. A batch's last iteration
            // leaves the second half until the checkpoint has seen the solve go on: a finished
            // solve skips its launches anyway, but a skipped launch of a resolver pass still
            // schedules its thousands of blocks.
            const auto productAndUpdate = [&] {
                key[dSlot] = ptr(dOld), key[dSlot + 1] = ptr(d), key[partSlot] = 1;
                mExec.replay(key, [&] {
                    crossSumOn<DirectionLaplacianDot>(mW128, mW512, FinishDq{s}, s, z, dOld, d, fixed, q, shift, -scale,
                                                      fixed != nullptr);
                    if (mg) // the V-cycle's first sweep rides along with the update of r
                        mExec.elementsSum(
                            mN, UpdateSolution{s, d, q, x, r, mExtra[0].data(), mDiag.data(), 1.f / SmoothingWeight},
                            FinishRr{s});
                    else
                        mExec.elementsSum(mN, UpdateSolution{s, d, q, x, r}, FinishRr{s});
                });
                std::swap(dOld, d);
            };
            const auto preconditionNext = [&] {
                key[dSlot] = key[dSlot + 1] = 0, key[partSlot] = 2;
                mExec.replay(key, [&] {
                    if (mg)
                        vcycle(0, z, r, mExtra[0].data(), mExtra[1].data(), s, true);
                    else
                        precondition(r, z, shift, scale, multigrid, s);
                });
            };
            // the first checkpoint where the last solve finished (warm starts take about as many)
            double before = -1;
            int itBefore = 0;
            for (int launched = 0, batch = std::clamp(mLastIterations, 1, 16); launched < mParams.cgMaxIterations;) {
                batch = std::min(batch, mParams.cgMaxIterations - launched);
                for (int k = 0; k < batch; ++k) {
                    if (k) preconditionNext();
                    productAndUpdate();
                }
                launched += batch;
                h = readCg();
                if (h.done != 0) break;
                preconditionNext();
                if (before < 0) before = std::sqrt(h.rr0);
                batch = iterationsToGo(before, itBefore, std::sqrt(h.rr), int(h.iterations), h.threshold);
                before = std::sqrt(h.rr), itBefore = int(h.iterations);
            }
        }
        if (h.done == 2) throw std::runtime_error(std::string(phaseName(name)) + ": CG diverged (NaN residual)");
        const int it = int(h.iterations);
        mLastIterations = std::max(it, 1);
        const double bNorm = std::sqrt(h.bb), rNorm = std::sqrt(h.rr);
        phase(name, mExec.stopTimer(t), it, bNorm > 0 ? rNorm / bNorm : 0.0);
    }

    static uint64_t ptr(const void* p) { return uint64_t(reinterpret_cast<uintptr_t>(p)); }

    CgState readCg()
    {
        CgState h;
        std::memcpy(&h, mExec.read(mCg, CgStateDoubles), sizeof h);
        return h;
    }

    /// Iterations until the next checkpoint: the residual's mean rate since the last one, extrapolated
    /// to the threshold; rounded down (a checkpoint too early costs one host round trip, one too
    /// late a few skipped launches).
    static int iterationsToGo(double r0, int it0, double r1, int it1, double threshold)
    {
        if (it1 <= it0 || !(r1 < r0) || !(r1 > 0)) return 2;
        const double perIteration = std::log(r1 / r0) / (it1 - it0);
        const double remaining = std::log(threshold / r1) / perIteration;
        return std::clamp(int(remaining), 1, 16);
    }

    /// Launches skip while the CG state says done, until this goes out of scope.
    struct SkipWhenDone {
        Exec& exec;
        SkipWhenDone(Exec& e, const double* done) : exec(e) { exec.skipWhen(done); }
        ~SkipWhenDone() { exec.skipWhen(nullptr); }
    };

    /// z = M r, then r.z into the CG state.
    void precondition(const float* r, float* z, float shift, float scale, bool multigrid, CgState* s)
    {
        if (multigrid && !mLevels.empty()) {
            vcycle(0, z, r, mExtra[0].data(), mExtra[1].data(), s);
        } else {
            elements(JacobiApply{r, mDiag.data(), z, shift, scale});
            mExec.elementsSum(mN, Product{r, z}, FinishRz{s});
        }
    }

    // ---------------------------------------------------------------- multigrid

    // damped Jacobi: 0.9 measured best on the 4.2M plume with piecewise-constant transfer (H200,
    // same run: 10 CG iterations against 11 at 0.8); below 1, so each sweep contracts every mode
    // and the cycle stays symmetric positive definite
    static constexpr float SmoothingWeight = 0.9f;
    // Level k's operator is 2^k (-L_k): with sum restriction (the transpose of an interpolation
    // whose weights sum to 1) and the graph Laplacian, 2 per level is the rediscretisation's scale
    // (8 children, spacing doubled). The coarse levels get 3 sweeps each way (cheap: 1/8 the
    // voxels and less).
    static constexpr int LevelScaleLog2 = 1;
    static constexpr int CoarseExtraPairs = 1, FineExtraPairs = 0; // extra sweep pairs each way
    // The coarsest level is the first of at most CoarsestVoxels, solved by CoarsestSweeps damped
    // Jacobi sweeps in one launch. On the 4.2M plume (H200, same runs): 500 voxels and 80 sweeps
    // 6 CG iterations where 2000 took 7; at 500, 40 and 24 sweeps still 6, 0.11 and 0.17 ms
    // less per step than 80. Even, for CoarsestJacobi.
    static constexpr int CoarsestSweeps = 40;
    static constexpr uint64_t CoarsestVoxels = 500;

    static float levelScale(size_t k) { return float(1u << (LevelScaleLog2 * k)); }

    struct Level {
        Array<GridChunk> gridBytes;
        Width w128, w512;
        uint64_t n = 0;
        Array<float> diag, x, tmp, b, r;
        Array<uint32_t> neighbours; ///< StoreCrossNeighbours' table (6 per voxel)
        Array<uint32_t> children;   ///< StoreChildren's table (8 per voxel) into the level above
        const IndexGrid* grid() const { return reinterpret_cast<const IndexGrid*>(gridBytes.data()); }
    };

    /// Coarser and coarser copies of the domain (voxels c >> 1), down to CoarsestVoxels, each
    /// with its cross taps (through the chosen resolver) and its children in the level above
    /// resolved once into tables: the coarse levels' passes are then element passes, which costs
    /// about 8 B per fine voxel and saves each coarse launch the decode and staging latency (most
    /// of a small launch's time). The fine level keeps running every pass through the resolver.
    void buildLevels(const HostGridHandle& fine)
    {
        if (mN > UINT32_MAX) throw std::invalid_argument("multigrid tables need fewer than 2^32 voxels");
        std::vector<HostGridHandle> hosts;
        const HostGridHandle* current = &fine;
        for (int k = 1; k < 12; ++k) {
            const IndexGrid* g = current->template grid<nanovdb::ValueOnIndex>();
            if (g->activeVoxelCount() <= CoarsestVoxels) break;
            std::vector<nanovdb::Coord> coarse;
            coarse.reserve(g->activeVoxelCount() / 4);
            for (uint32_t i = 0; i < g->tree().nodeCount(0); ++i)
                for (auto on = leaves(g)[i].valueMask().beginOn(); on; ++on) {
                    const auto c = leaves(g)[i].offsetToGlobalCoord(*on);
                    coarse.emplace_back(c[0] >> 1, c[1] >> 1, c[2] >> 1);
                }
            hosts.push_back(indexGridFromCoords(coarse));
            current = &hosts.back();
            Level& lv = mLevels.emplace_back();
            uploadGrid(*current, lv.gridBytes, lv.w128, lv.w512, mMetaBytes);
            lv.n = lv.w128.view.valueCount;
            for (auto* a : {&lv.diag, &lv.x, &lv.tmp, &lv.b, &lv.r}) {
                *a = Exec::template allocate<float>(lv.n);
                mTempBytes += lv.n * sizeof(float);
            }
            crossOn<CountNeighbours>(lv.w128, lv.w512, lv.diag.data());
            // the taps through the resolver chosen now (they are the same for any)
            lv.neighbours = Exec::template allocate<uint32_t>(6 * lv.n);
            lv.children = Exec::template allocate<uint32_t>(8 * lv.n);
            mTempBytes += 14 * lv.n * sizeof(uint32_t);
            crossOn<StoreCrossNeighbours>(lv.w128, lv.w512, lv.neighbours.data());
            const IndexGrid* above =
                k > 1 ? mLevels[k - 2].grid() : reinterpret_cast<const IndexGrid*>(mGridBytes.data());
            voxelsOn(lv.w128, lv.w512, StoreChildren{above, lv.grid(), lv.children.data()});
        }
    }

    /// One V-cycle for scale_k (-L_k) x = b at level k (0 = the fine grid, operator -L), from x = 0:
    /// a damped Jacobi sweep, the residual restricted to level k+1 (TrilinearRestrict), its
    /// correction interpolated back (TrilinearProlongAdd, the transpose), another sweep; the
    /// coarsest level only sweeps. Symmetric, so it preconditions CG. At level 0, cg gets r.z
    /// (b = r, x = z) from the last sweep. Level 0's sweeps and residual run through the
    /// resolver; coarse levels read their taps from their tables.
    /// firstSweepDone: tmp already holds the first sweep (CG's update, or the restriction into
    /// this level, wrote it).
    void vcycle(size_t k, float* x, const float* b, float* tmp, float* res, CgState* cg = nullptr,
                bool firstSweepDone = false)
    {
        const uint64_t n = k ? mLevels[k - 1].n : mN;
        const float* diag = k ? mLevels[k - 1].diag.data() : mDiag.data();
        const uint32_t* table = k ? mLevels[k - 1].neighbours.data() : nullptr;
        const float scale = levelScale(k);
        if (k == mLevels.size()) { // k >= 1: multigrid runs only with levels
            // all its sweeps in one launch (the level is small: per-launch latency would dominate)
            mExec.steps(n, CoarsestSweeps + 2, 2 * n,
                        CoarsestJacobi{table, b, diag, x, n, scale, SmoothingWeight, CoarsestSweeps});
            return;
        }
        const auto smooth = [&](const float* from, float* to) {
            if (k)
                mExec.elements(n, TableJacobi{table, from, b, diag, to, scale, SmoothingWeight});
            else
                cross<JacobiSmooth>(from, b, diag, to, scale, SmoothingWeight);
        };
        // the first sweep from x = 0 is element-wise: tmp = omega * b / (scale * diag)
        if (!firstSweepDone) mExec.elements(n, JacobiApply{b, diag, tmp, 0.f, scale / SmoothingWeight});
        const int pairs = k ? CoarseExtraPairs : FineExtraPairs;
        for (int p = 0; p < pairs; ++p) {
            smooth(tmp, x);
            smooth(x, tmp);
        }
        if (k)
            mExec.elements(n, TableResidual{table, tmp, b, res, scale});
        else
            cross<Residual>(tmp, b, res, scale);
        Level& c = mLevels[k];
        // level k+1's first sweep rides along with its restriction (the coarsest sweeps on its own)
        const bool coarsest = k + 1 == mLevels.size();
        const FirstSweep first =
            coarsest ? FirstSweep{} : FirstSweep{c.diag.data(), c.tmp.data(), levelScale(k + 1) / SmoothingWeight};
        mExec.elements(c.n, TrilinearRestrict{c.neighbours.data(), c.children.data(), res, c.b.data(), first});
        vcycle(k + 1, c.x.data(), c.b.data(), c.tmp.data(), c.r.data(), nullptr, !coarsest);
        mExec.elements(c.n, TrilinearProlongAdd{c.neighbours.data(), c.children.data(), c.x.data(), tmp});
        for (int p = 0; p < pairs; ++p) {
            smooth(tmp, x);
            smooth(x, tmp);
        }
        if (cg)
            crossSumOn<JacobiSmoothDot>(mW128, mW512, FinishRz{cg}, tmp, b, diag, x, scale, SmoothingWeight);
        else
            smooth(tmp, x);
    }

    // ---------------------------------------------------------------- heat

    void heatStep()
    {
        const double h2 = mParams.voxelSize * mParams.voxelSize;
        const float c = float(mParams.alpha * mParams.dt / h2);
        float* tNew = mTemp[0].data();
        if (mParams.scheme == HeatScheme::Explicit) {
            if (mParams.dt > explicitStableDt() * (1 + 1e-9))
                throw std::invalid_argument("explicit heat step dt = " + std::to_string(mParams.dt) +
                                            " exceeds the stable bound h^2/(6 alpha) = " +
                                            std::to_string(explicitStableDt()) + ": lower dt or use implicit");
            timed(Phase::Diffusion, [&] { cross<ApplyLaplacian>(mT.data(), mFixed.data(), tNew, 1.f, c, false); });
            std::swap(mT, mTemp[0]);
        } else {
            timed(Phase::DiffusionRhs, [&] { cross<FixedNeighbourRhs>(mT.data(), mFixed.data(), tNew, c); });
            // solve (I + c(-L)) T' = b, fixed voxels decoupled, from T as the initial guess
            float* x = mSolution.data();
            elements(Copy{mT.data(), x});
            elements(ZeroWhere{mFixed.data(), x});
            conjugateGradients(Phase::DiffusionCg, x, tNew, 1.f, c, mFixed.data());
            elements(SetWhere{mFixed.data(), mT.data(), x});
            std::swap(mT, mSolution);
        }
    }

    // ---------------------------------------------------------------- smoke

    void smokeStep()
    {
        const float dt = float(mParams.dt);
        float *cu = mExtra[0].data(), *cv = mExtra[1].data(), *cw = mExtra[2].data();
        const Emit emit{mEmitter.data(), mRho.data(), mT.data(), float(mParams.emitDensity),
                        float(mParams.emitTemperature)};
        const Buoyancy buoyancy{mRho.data(), mT.data(), cv, float(dt * mParams.buoyancy), float(dt * mParams.weight)};
        if (mParams.vorticity <= 0) { // nothing between them: one pass
            timed(Phase::SourcesCentreBuoyancy,
                  [&] { cross<CentresFromFaces>(mU.data(), mV.data(), mW.data(), cu, cv, cw, true, emit, buoyancy); });
        } else {
            timed(Phase::Sources, [&] { elements(emit); });
            timed(Phase::CentreVelocity, [&] { cross<CentresFromFaces>(mU.data(), mV.data(), mW.data(), cu, cv, cw); });
            // uses the advection outputs' arrays, free until advection
            float *wx = mTemp[0].data(), *wy = mTemp[1].data(), *wz = mTemp[2].data(), *mag = mTemp[3].data();
            timed(Phase::VorticityConfinement, [&] {
                cross<Vorticity>(cu, cv, cw, wx, wy, wz, mag);
                cross<ConfinementForce>(wx, wy, wz, mag, cu, cv, cw, float(mParams.dt * mParams.vorticity));
            });
            timed(Phase::Buoyancy, [&] { elements(buoyancy); });
        }
        // advection, in as many substeps as keep the CFL number <= maxCfl
        const auto ta = mExec.startTimer();
        const double vmax = mExec.maxAbs(cu, cv, cw, mN);
        const double cfl = vmax * mParams.dt / mParams.voxelSize;
        const int substeps = std::max(1, int(std::ceil(cfl / std::min(1.0, mParams.maxCfl))));
        if (substeps > 10000 || !std::isfinite(cfl))
            throw std::runtime_error("smoke velocity blew up (CFL " + std::to_string(cfl) + ")");
        for (int s = 0; s < substeps; ++s) {
            Advect<> a{cu, cv, cw, float(mParams.dt / substeps / mParams.voxelSize), {}, {}};
            float* in[AdvectedChannels] = {mRho.data(), mT.data(), cu, cv, cw};
            for (int ch = 0; ch < AdvectedChannels; ++ch)
                a.in[ch] = in[ch], a.out[ch] = mTemp[ch].data();
            advect(a);
            std::swap(mRho, mTemp[0]);
            std::swap(mT, mTemp[1]);
            for (int k = 0; k < 3; ++k)
                std::swap(mExtra[k], mTemp[2 + k]);
            cu = mExtra[0].data(), cv = mExtra[1].data(), cw = mExtra[2].data();
        }
        phase(Phase::Advection, mExec.stopTimer(ta));
        mReport.substeps = substeps;
        // the pressure solve's right-hand side -div u comes with the faces (mTemp[0]: free after advection)
        float* rhs = mTemp[0].data();
        timed(Phase::FaceVelocityDivergence,
              [&] { cross<FacesFromCentres>(cu, cv, cw, mU.data(), mV.data(), mW.data(), rhs); });
        project(rhs);
    }

    /// Makes the face velocity divergence-free: solve -L p = rhs = -div u, then u -= grad p.
    void project(const float* rhs)
    {
        conjugateGradients(Phase::PressureCg, mP.data(), rhs, 0.f, 1.f, nullptr, !mLevels.empty());
        timed(Phase::Gradient, [&] { cross<SubtractGradient>(mP.data(), mU.data(), mV.data(), mW.data()); });
    }

    /// The check of the projection, max |div u| / max |u|, into the report: a diagnostic, run
    /// after the step's timer stops (it is not part of the step's work).
    void measureDivergence()
    {
        float* rhs = mTemp[0].data();
        cross<Divergence>(mU.data(), mV.data(), mW.data(), rhs);
        const double umax = mExec.maxAbs(mU.data(), mV.data(), mW.data(), mN);
        const double dmax = mExec.maxAbs(rhs, rhs, rhs, mN);
        mReport.divergenceAfter = umax > 0 ? dmax / umax : 0.0;
    }

    Exec mExec;
    SimulationKind mKind;
    SimulationParams mParams;
    StencilChoice mChoice;
    FrameTimings mReport;
    std::vector<typename Exec::Span> mSpans; ///< one per mReport.phases entry
    uint64_t mActive = 0, mN = 0, mGridByteCount = 0, mMetaBytes = 0, mFieldBytes = 0, mTempBytes = 0;
    Array<GridChunk> mGridBytes;
    Width mW128, mW512;
    Array<float> mT, mDiag, mFixed, mRho, mEmitter, mU, mV, mW, mP;
    Array<float> mTemp[5];
    Array<float> mExtra[3];
    Array<float> mSolution;     ///< heat: the implicit solve's unknowns
    Array<double> mCg;          ///< the CG solve's scalars (a CgState)
    std::vector<Level> mLevels; ///< smoke with multigrid: levels 1.. (level 0 is the grid itself)
    int mLastIterations = 2;    ///< the last CG solve's iterations: where the next one first checks
};

} // namespace vbm::solver
