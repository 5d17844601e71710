// SPDX-License-Identifier: Apache-2.0
// --checkpoint-every K DIR: the headless run's checkpoints (solver/api/Checkpoint.h), every Kth
// frame and once more when a signal stops the run, each written atomically; the two newest
// are kept.
#pragma once

#include "Checkpoint.h"

#include <cstdint>
#include <string>

namespace vbm::app {

class Session;

/// The file of the checkpoint after `framesDone` frames: DIR/checkpoint-NNNNNNNN.vbmck.
std::string checkpointPath(const std::string& dir, uint64_t framesDone);

class RunCheckpoints {
public:
    /// `base`: the run's scene, settings and resolvers; the frame and time are filled in per file.
    RunCheckpoints(std::string dir, int every, CheckpointInfo base);

    /// After `framesDone` frames (counted from the scene's start): writes one when due.
    void afterFrame(const Session& session, uint64_t framesDone);
    /// Writes one now, unless the last one is of this frame.
    void finalCheckpoint(const Session& session, uint64_t framesDone);

    int written() const { return mWritten; }
    const std::string& lastPath() const { return mLastPath; }

private:
    void write(const Session& session, uint64_t framesDone);
    /// Removes this folder's checkpoints numbered below the one before `newest`: the newest two
    /// stay, and so does any numbered above `newest` (another run's, ahead of this one).
    void prune(uint64_t newest) const;

    std::string mDir;
    int mEvery;
    CheckpointInfo mBase;
    int mWritten = 0;
    uint64_t mLastFrame = 0;
    std::string mLastPath;
};

} // namespace vbm::app
