// SPDX-License-Identifier: Apache-2.0
// A frame's fields taken off the GPU without holding the run up (--export-every on CUDA): each
// field is copied device to device into a snapshot on the solver's stream, right after the
// step (ordered before the next step, microseconds), then from the snapshot into pinned host
// memory on a stream of its own, while the next steps run. Only the writer waits for that copy.
// A fixed number of slots, one per frame the export may hold, is allocated once.
#pragma once

#include <memory>
#include <string>
#include <vector>

namespace vbm {
class Solver;
}

namespace vbm::app {

class FrameCopies {
public:
    /// Slots for `slots` frames of `solver`'s fields, sized for its value count now; null, with
    /// the reason in `whyNot`, where the synchronous copies must do: the CPU backend, a build
    /// without CUDA, or too little free device or host memory for the slots (a quarter of the
    /// free device memory and of `hostBytes` at most).
    static std::unique_ptr<FrameCopies> make(const Solver& solver, int slots, size_t hostBytes, std::string& whyNot);
    ~FrameCopies();
    FrameCopies(const FrameCopies&) = delete;
    FrameCopies& operator=(const FrameCopies&) = delete;

    /// Whether `fields` fields of `count` floats each (the grid's value count now) fit the slots
    /// (an adaptive scene may outgrow them).
    bool fits(size_t fields, size_t count) const;
    /// Queues the copies of `names` of `solver` after its last step (`count` floats each, as
    /// fits() was asked) into a free slot and returns the slot. The caller holds at most `slots`
    /// frames at once; throws when none is free.
    int start(const Solver& solver, const std::vector<std::string>& names, size_t count);
    /// Waits for slot `slot`'s copies, returns its fields (in the order start() was given them,
    /// each as long as the value count then) and frees the slot. Called by a writer thread.
    std::vector<std::vector<float>> take(int slot);

private:
    struct Slots;
    explicit FrameCopies(std::unique_ptr<Slots> slots);
    std::unique_ptr<Slots> mSlots;
};

} // namespace vbm::app
