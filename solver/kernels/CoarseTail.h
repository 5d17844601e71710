// The multigrid's last levels in one launch of one thread block (Multigrid.h): the restriction
// into the first of them, their whole V-cycle and the prolongation out of it, as a list of
// phases with a barrier after each (Exec::phases). Level sizes there are a few thousand voxels
// and less, where one launch per sweep cost 2.5-3 us each, mostly latency (H200 run 13: levels 4
// and 5 of the 4.2M plume took 58 us per V-cycle in 26 launches). Here their tables and arrays
// are first copied into the block's workspace (shared memory on CUDA), so a sweep reads no
// global memory. Each phase runs the same element bodies as the launches it replaces, on the
// same elements with the same inputs, so the result is bitwise the same.
#pragma once

#include "kernels/MultigridBodies.h"
#include "kernels/TrilinearTransfer.h"

#include <cstdint>

namespace vbm::solver {

struct CoarseTail {
    static constexpr int MaxLevels = 4;
    static constexpr int MaxPhases = 160;
    enum Op : uint8_t {
        StageNeighbours,
        StageChildBase,
        StageChildOffsets,
        Restrict,
        Sweep,
        Residual,
        Coarsest,
        Prolong
    };
    enum Array : uint8_t { X, Tmp }; ///< a sweep's input; it writes the other
    /// A tail level: its tables in executor memory and where its part of the workspace starts.
    struct Level {
        const uint32_t* neighbours = nullptr;
        const uint32_t* childBase = nullptr;
        const uint64_t* childOffsets = nullptr;
        uint32_t n = 0;
        float scale = 0;
        uint64_t at = 0; ///< in 32-bit words, even (childOffsets are 8-byte aligned); set by plan()
    };
    /// One phase: op on level `level`; a sweep from `from`; a coarsest step `step`.
    struct Phase {
        Op op;
        uint8_t level;
        uint8_t from;
        uint8_t step;
    };

    Level level[MaxLevels];
    Phase phase[MaxPhases];
    int levels = 0, phases = 0;
    const float* aboveResidual = nullptr; ///< the level above the tail: its residual, restricted into level 0
    float* aboveSweep = nullptr;          ///< its sweep, which the interpolated correction is added to
    float omega = 0;
    int coarsestSweeps = 0;
    uint64_t words = 0; ///< the workspace, in 32-bit words

    /// Workspace words of a level of n values: neighbours 6n, child offsets 2n, child base n,
    /// x, tmp and b n each, and the coarsest level's two iterates 2n (even: the next level's
    /// child offsets stay 8-byte aligned).
    static constexpr uint64_t levelWords(uint64_t n, bool coarsest) { return (coarsest ? 14 : 12) * n; }

    __hostdev__ int phaseCount() const { return phases; }
    /// The loop of phase p: elements [begin, end).
    __hostdev__ uint64_t begin(int p) const { return phase[p].op <= StageChildOffsets ? 0 : 1; }
    __hostdev__ uint64_t end(int p) const
    {
        const uint64_t n = level[phase[p].level].n;
        return phase[p].op == StageNeighbours ? 6 * n : n;
    }

    /// Element i of phase p; ws: the workspace.
    __hostdev__ void operator()(int p, uint64_t i, uint32_t* ws) const
    {
        const Phase ph = phase[p];
        const Level& lv = level[ph.level];
        const uint64_t n = lv.n;
        uint32_t* base = ws + lv.at;
        const uint32_t* neighbours = base;
        const ChildTable children{base + 8 * n, reinterpret_cast<const uint64_t*>(base + 6 * n)};
        float* x = reinterpret_cast<float*>(base + 9 * n);
        float* tmp = x + n;
        float* b = tmp + n;
        switch (ph.op) {
        case StageNeighbours:
            base[i] = lv.neighbours[i];
            break;
        case StageChildBase:
            base[8 * n + i] = lv.childBase[i];
            break;
        case StageChildOffsets:
            reinterpret_cast<uint64_t*>(base + 6 * n)[i] = lv.childOffsets[i];
            break;
        case Restrict: { // from the level above (its residual: the tail's input, or its x)
            const float* r =
                ph.level ? reinterpret_cast<const float*>(ws + level[ph.level - 1].at + 9 * level[ph.level - 1].n)
                         : aboveResidual;
            const bool coarsest = ph.level + 1 == levels;
            const FirstSweep first = coarsest ? FirstSweep{} : FirstSweep{neighbours, tmp, lv.scale / omega};
            TrilinearRestrict{neighbours, children, r, b, first}(i);
            break;
        }
        case Sweep:
            TableJacobi{neighbours, ph.from == X ? x : tmp, b, ph.from == X ? tmp : x, lv.scale, omega}(i);
            break;
        case Residual: // into x, as the launches do (CoarseLevel::x)
            TableResidual{neighbours, tmp, b, x, lv.scale}(i);
            break;
        case Coarsest:
            CoarsestJacobi{neighbours, b, x, n, lv.scale, omega, coarsestSweeps}(ph.step, i,
                                                                                 reinterpret_cast<float*>(b + n));
            break;
        case Prolong: { // into the sweep of the level above
            float* into = ph.level ? reinterpret_cast<float*>(ws + level[ph.level - 1].at + 10 * level[ph.level - 1].n)
                                   : aboveSweep;
            TrilinearProlongAdd{neighbours, children, x, into, nullptr}(i);
            break;
        }
        }
    }

    /// Appends a phase (false when the list is full).
    bool add(Op op, int lv, int from = 0, int step = 0)
    {
        if (phases == MaxPhases) return false;
        phase[phases++] = {op, uint8_t(lv), uint8_t(from), uint8_t(step)};
        return true;
    }

    /// The phases of Multigrid::vcycle on these levels, from the restriction into level 0 to the
    /// prolongation out of it, with `pairs` extra sweep pairs each way on every level but the
    /// coarsest (false when they do not fit in MaxPhases).
    bool plan(int pairs)
    {
        bool ok = true;
        words = 0;
        for (int j = 0; j < levels; ++j) {
            level[j].at = words;
            words += levelWords(level[j].n, j + 1 == levels);
            ok = ok && add(StageNeighbours, j) && add(StageChildBase, j) && add(StageChildOffsets, j);
        }
        for (int j = 0; j < levels; ++j) { // down: restrict, sweeps, residual
            ok = ok && add(Restrict, j);
            if (j + 1 == levels) {
                for (int s = 0; s < coarsestSweeps + 2; ++s)
                    ok = ok && add(Coarsest, j, 0, s);
                break;
            }
            for (int q = 0; q < pairs; ++q)
                ok = ok && add(Sweep, j, Tmp) && add(Sweep, j, X);
            ok = ok && add(Residual, j);
        }
        for (int j = levels - 1; j >= 0; --j) { // up: prolong into the level above, then its sweeps
            ok = ok && add(Prolong, j);
            if (j == 0) break;
            for (int q = 0; q < pairs; ++q)
                ok = ok && add(Sweep, j - 1, Tmp) && add(Sweep, j - 1, X);
            ok = ok && add(Sweep, j - 1, Tmp);
        }
        return ok && coarsestSweeps + 2 <= 255;
    }
};

} // namespace vbm::solver
