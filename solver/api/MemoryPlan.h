// SPDX-License-Identifier: Apache-2.0
// How much memory a scene will take, how much the machine offers, and what follows from the
// two: whether a domain may be built at all (checked before any voxel is), and whether the
// tap table is on when the scene leaves it to the program (`tap_table auto`, the default).
// The estimates follow the per-array table of docs/solver.md ("Memory"); MemoryPlan.*'s tests
// hold them against what the solver then allocates.
#pragma once

#include "Scene.h"

#include <cstdint>
#include <string>

namespace vbm {

/// Bytes the solver holds per active voxel (device memory for the CUDA backend, host memory
/// for the CPU one) for `scene`'s kind, storage and pressure solve, with or without the tap
/// table. An estimate from above for the built-in shapes: it assumes coarse levels of 0.2
/// coarse voxels per fine one (a ball has 0.15) and 2 B of grid and VBM per voxel.
double estimatedSolverBytesPerVoxel(const Scene& scene, bool tapTable);
/// The solver's bytes for `voxels`: the above per voxel, and 16 MiB for what does not grow with
/// them (the grid's internal nodes, about 0.3 MB per upper node, and the executor's scratch).
double estimatedSolverBytes(const Scene& scene, double voxels, bool tapTable);

/// Host bytes per voxel while a fixed domain is built and uploaded: its voxel list, the
/// NanoVDB builder's grid, the scene's initial fields and the packed copies made on the way.
double estimatedSetupHostBytesPerVoxel(const Scene& scene);

/// The memory the machine offers now: `device` is what the backend allocates from (free CUDA
/// memory, or available host memory for the CPU backend), `host` the available host memory.
/// VBM_DEVICE_MEMORY and VBM_HOST_MEMORY (bytes, or with a K, M, G or T suffix: powers of
/// 1024) replace either, to cap a run or to test the refusals on a small machine.
struct MemoryOffer {
    uint64_t device = 0, host = 0;
    std::string deviceName; ///< where `device` lives: "the GPU" or "the host"
};
MemoryOffer memoryOffer(Backend backend);

/// A byte count with a K/M/G/T suffix (powers of 1024), or nothing when `text` is not one.
bool parseByteCount(const std::string& text, uint64_t& bytes);

/// "" when `voxels` of `scene` fit `configurations` solvers on `offer`, else the one line that
/// refuses it: the voxels, the bytes needed and available, and what to try.
std::string memoryRefusal(const Scene& scene, double voxels, int configurations, const MemoryOffer& offer);

/// Whether the tap table runs, and the header's reason: the scene's (or --tap-table's) on and
/// off are kept; auto turns it on when the solvers with the table take at most 90% of the
/// offer, so the rest of the run (the renderer, an adaptive set's growth) keeps room.
struct TapTablePlan {
    bool on = false;
    std::string why;
};
TapTablePlan planTapTable(const Scene& scene, double voxels, int configurations, const MemoryOffer& offer);

} // namespace vbm
