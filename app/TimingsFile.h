// SPDX-License-Identifier: Apache-2.0
// The headless run's --timings file: every phase of every frame and configuration, one row each,
// as CSV (frame,resolver,phase,ms,iterations,residual,active_voxels,smoke_voxels) or JSON (the
// same keys, plus the scene, backend and seed), chosen by the path's suffix. active_voxels is the
// configuration's active voxel count after that frame's step, on each of the frame's rows:
// adaptive scenes change it every few frames, and a frame that rebuilt has rows for the rebuild
// phases. smoke_voxels (adaptive scenes; 0 elsewhere): the voxels whose density exceeds the
// adapt threshold, what the active set follows. iterations: CG's on the pressure CG row, and the
// advection substeps on the advection row (JSON: "substeps"), which its time scales with.
#pragma once

#include "FrameTimings.h"
#include "SolverTypes.h"

#include <cstdint>
#include <string>
#include <vector>

namespace vbm::app {

/// A run's records: frames[f][k] is configuration k's record of frame f (configuration 0's also
/// holds the render and the whole frame).
struct TimingRecords {
    std::string scene;
    Backend backend = Backend::Cpu;
    uint64_t seed = 1;
    std::vector<std::string> configNames;
    std::vector<std::vector<FrameTimings>> frames;
};

/// The phases of the records in the order their rows come: within a frame each configuration's
/// solver phases and step, then the first configuration's render, render gpu and frame. A phase
/// that runs only in some frames (the rebuild) keeps its place in the step (PhaseOrder.h).
std::vector<Phase> phasesInRowOrder(const TimingRecords& t);

/// Writes the file; returns the number of rows. Throws std::runtime_error naming the file when
/// it cannot be written.
size_t writeTimings(const std::string& path, const TimingRecords& t);

} // namespace vbm::app
