// SPDX-License-Identifier: Apache-2.0
// --export-every K FILE: every Kth frame's fields written as OpenVDB (.vdb, VdbExport.h) or
// NanoVDB (.nvdb, FieldExport.h) files, on background writer threads while the next steps run,
// one file per writer at a time (a file is written by one thread: OpenVDB's stream is serial).
// On CUDA the fields leave the GPU through FrameCopies (a snapshot, then pinned asynchronous
// copies the writer waits for), so the run's thread does not wait for them either.
// The queue holds one frame more than there are writers, and no more frames than fit in a
// quarter of the memory free at the start: when the writers fall behind, the run waits for
// them and says so once.
#pragma once

#include "FrameCopies.h"
#include "VdbExport.h"

#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace vbm::app {

class Session;

/// The first solver's grid and fields now, named for a .vdb file (`vdb`: the velocity apart as
/// u, v, w, heat's temperature as heat) or for a .nvdb one (every field by its own name).
VdbFrame currentFrame(const Session& session, bool vdb, int frame);

/// Puts field `name`'s values in `f` where currentFrame would (see above).
void placeField(VdbFrame& f, const std::string& name, std::vector<float> values, bool vdb, bool heat);

/// The file of frame `frame`: %04d in `pattern` replaced by the frame number (as --screenshot).
std::string framePath(const std::string& pattern, int frame);

/// Whether `path` names an OpenVDB .vdb file (any other name is written as NanoVDB).
bool isVdbPath(const std::string& path);

/// Throws cli::UsageError when `pattern` (checked by ArgReader::outputPath) cannot name the files
/// of a run of `frames` frames exported every `every`: a .vdb without OpenVDB in this build, or
/// more than one file with no %04d to tell them apart.
void checkExportPattern(const std::string& pattern, int every, int frames);

/// Writers a run gets when --export-writers is not given: on CUDA, a quarter of the cores (at
/// most 4, at least 1), each writing one file; on the CPU one, which leaves the cores to the
/// solver.
int defaultExportWriters(bool cuda);

class FrameExport {
public:
    FrameExport(std::string pattern, int every, int writers = 1,
                VdbStorage storage = {});
    ~FrameExport();
    FrameExport(const FrameExport&) = delete;
    FrameExport& operator=(const FrameExport&) = delete;

    /// After frame `frame` (0-based) has stepped: when it is due, copies the first solver's grid
    /// and fields and queues them for the writer. Throws the writer's first failure.
    void afterFrame(const Session& session, int frame);
    /// Waits for every queued file; throws the writer's first failure.
    void finish();

    int filesWritten() const { return mWritten; }
    int writers() const { return int(mWriters.size()); }
    double writeSeconds() const { return mWriteSeconds; } ///< the writers' own time, summed
    double waitSeconds() const { return mWaitSeconds; }   ///< the run's time waiting for room

private:
    struct Job {
        std::string path;
        VdbFrame frame;
        size_t bytes = 0; ///< host memory the frame holds
        bool copies = false; ///< its fields come through FrameCopies
        int slot = -1;    ///< then its slot, whose fields the writer places
        std::vector<std::string> names; ///< the fields in the slot, in order
        size_t count = 0;               ///< floats per field: the grid's value count
        bool heat = false;
    };
    Job queuedFrame(const Session& session, int frame);
    void placeCopies(Job& job);
    void writerLoop();
    void rethrowFailure();

    std::string mPattern;
    int mEvery;
    bool mVdb;
    VdbStorage mStorage;
    std::deque<Job> mQueue;  ///< frames waiting for a writer
    int mInFlight = 0;       ///< frames being written
    size_t mHeldBytes = 0;   ///< host bytes of the frames waiting and being written
    size_t mMaxHeldBytes = 0;
    std::mutex mMutex;
    std::condition_variable mChanged;
    bool mStop = false, mSaidBehind = false;
    std::string mFailure;
    int mWritten = 0;
    double mWriteSeconds = 0, mWaitSeconds = 0;
    std::unique_ptr<FrameCopies> mCopies; ///< CUDA's asynchronous copies, when they fit
    bool mTriedCopies = false;
    std::vector<std::thread> mWriters;
};

} // namespace vbm::app
