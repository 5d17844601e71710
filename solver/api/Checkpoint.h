// SPDX-License-Identifier: Apache-2.0
// Checkpoints: a solver's whole state in one file (Solver::state), with how the run was started
// and how far it got, so that a run resumed from it steps bitwise as the uninterrupted one
// would. The format is ours (docs/export.md, "Checkpoints"): a header naming the format
// version, the state, and a hash of every byte before it, so a truncated, corrupt or foreign
// file is refused before anything is built from it.
#pragma once

#include "Scene.h"
#include "Solver.h"
#include "SolverTypes.h"

#include <cstdint>
#include <string>

namespace vbm {

/// The version this build writes and reads: a checkpoint of another one is refused.
inline constexpr uint32_t CheckpointFormat = 2;

/// What a checkpoint records besides the solver's state.
struct CheckpointInfo {
    std::string scene;    ///< the scene as the run named it: a built-in name or a file
    std::string settings; ///< the command line's scene settings, as text ("--scalars half"), or ""
    uint64_t frame = 0;   ///< frames done
    double time = 0;      ///< simulated seconds
    StencilChoice choice; ///< the resolvers and block width the run used
};

struct Checkpoint {
    Scene scene; ///< the state: a solver made from it goes on from `info.frame`
    CheckpointInfo info;
};

/// Writes `solver`'s state as `path`: under `path`.partial, flushed to the disk, then renamed, so
/// no partial file is ever left under `path`. Throws std::runtime_error naming the file and the
/// failure (a full disk, an unwritable folder); the temporary file is removed.
void writeCheckpoint(const std::string& path, const Solver& solver, const CheckpointInfo& info);

/// Reads a checkpoint. Throws InputError (GridFile.h), one line naming the file, when it is
/// missing, not a checkpoint, of another format version, truncated or corrupt; no size in it is
/// trusted before it is checked against the file's.
Checkpoint readCheckpoint(const std::string& path);

} // namespace vbm
