// SPDX-License-Identifier: Apache-2.0
// Device snapshots and pinned host copies of a frame's fields (see FrameCopies.h).
#include "FrameCopies.h"

#include "Solver.h"

#include <algorithm>
#include <cstring>
#include <mutex>
#include <stdexcept>

#if VBM_HAVE_CUDA
#include "CudaCheck.h"

#include <cuda_runtime.h>
#endif

namespace vbm::app {

#if VBM_HAVE_CUDA

namespace {

/// Floats per field a slot holds for `solver` now: its value count (index 0, the background,
/// included).
size_t valueCount(const Solver& solver)
{
    const HostGridHandle grid = solver.grid();
    const auto* index = grid.grid<nanovdb::ValueOnIndex>();
    return index ? size_t(index->valueCount()) : 0;
}

} // namespace

struct FrameCopies::Slots {
    size_t fields = 0, count = 0; ///< fields per slot, floats per field
    struct Slot {
        float* device = nullptr; ///< fields * count floats
        float* host = nullptr;   ///< pinned, fields * count floats
        cudaEvent_t snapshot = nullptr, copied = nullptr;
        size_t used = 0, count = 0; ///< the frame's fields and floats per field
        bool busy = false;
    };
    std::vector<Slot> slots;
    cudaStream_t copyStream = nullptr;
    std::mutex mutex;

    ~Slots()
    {
        for (Slot& s : slots) { // a failed make() leaves some of these null
            if (s.copied) cudaEventSynchronize(s.copied), cudaEventDestroy(s.copied);
            if (s.snapshot) cudaEventDestroy(s.snapshot);
            if (s.device) cudaFree(s.device);
            if (s.host) cudaFreeHost(s.host);
        }
        if (copyStream) cudaStreamDestroy(copyStream);
    }
};

std::unique_ptr<FrameCopies> FrameCopies::make(const Solver& solver, int slots, size_t hostBytes, std::string& whyNot)
{
    if (!solver.cudaStream()) {
        whyNot = "the CPU backend keeps its fields in host memory";
        return nullptr;
    }
    auto s = std::make_unique<Slots>();
    s->fields = solver.fieldNames().size();
    s->count = valueCount(solver);
    const size_t bytes = s->fields * s->count * sizeof(float) * size_t(slots);
    size_t freeDevice = 0, total = 0;
    cuda::checkCuda(cudaMemGetInfo(&freeDevice, &total), "cudaMemGetInfo");
    if (bytes > freeDevice / 4 || bytes > hostBytes / 4) {
        whyNot = "the " + std::to_string(slots) + " frames' copies (" + std::to_string(bytes >> 20) +
                 " MiB) would take over a quarter of the free GPU or host memory";
        return nullptr;
    }
    cuda::checkCuda(cudaStreamCreateWithFlags(&s->copyStream, cudaStreamNonBlocking), "cudaStreamCreate (export)");
    s->slots.resize(size_t(slots));
    for (Slots::Slot& slot : s->slots) {
        const size_t slotBytes = s->fields * s->count * sizeof(float);
        cuda::checkCuda(cudaMalloc(&slot.device, slotBytes), "cudaMalloc (export snapshot)");
        cuda::checkCuda(cudaMallocHost(&slot.host, slotBytes), "cudaMallocHost (export copy)");
        cuda::checkCuda(cudaEventCreateWithFlags(&slot.snapshot, cudaEventDisableTiming), "cudaEventCreate");
        cuda::checkCuda(cudaEventCreateWithFlags(&slot.copied, cudaEventDisableTiming), "cudaEventCreate");
    }
    return std::unique_ptr<FrameCopies>(new FrameCopies(std::move(s)));
}

bool FrameCopies::fits(size_t fields, size_t count) const
{
    return fields <= mSlots->fields && count <= mSlots->count;
}

int FrameCopies::start(const Solver& solver, const std::vector<std::string>& names, size_t count)
{
    Slots& s = *mSlots;
    int free = -1;
    {
        std::lock_guard<std::mutex> lock(s.mutex);
        for (size_t i = 0; i < s.slots.size() && free < 0; ++i)
            if (!s.slots[i].busy) free = int(i);
        if (free < 0) throw std::logic_error("export: every copy slot is busy");
        s.slots[size_t(free)].busy = true;
    }
    Slots::Slot& slot = s.slots[size_t(free)];
    const auto stream = static_cast<cudaStream_t>(solver.cudaStream());
    const size_t bytes = count * sizeof(float);
    if (names.size() > s.fields || count > s.count) throw std::logic_error("export: a frame larger than its copy slot");
    slot.used = names.size(), slot.count = count;
    // The snapshot on the solver's stream: the next step's writes to the fields come after it.
    for (size_t i = 0; i < names.size(); ++i)
        cuda::checkCuda(cudaMemcpyAsync(slot.device + i * s.count, solver.fieldData(names[i]), bytes,
                                        cudaMemcpyDeviceToDevice, stream),
                        "cudaMemcpyAsync (export snapshot)");
    cuda::checkCuda(cudaEventRecord(slot.snapshot, stream), "cudaEventRecord");
    // To the host on the export's own stream, beside the next steps.
    cuda::checkCuda(cudaStreamWaitEvent(s.copyStream, slot.snapshot, 0), "cudaStreamWaitEvent");
    cuda::checkCuda(cudaMemcpyAsync(slot.host, slot.device, names.size() * s.count * sizeof(float),
                                    cudaMemcpyDeviceToHost, s.copyStream),
                    "cudaMemcpyAsync (export copy)");
    cuda::checkCuda(cudaEventRecord(slot.copied, s.copyStream), "cudaEventRecord");
    return free;
}

std::vector<std::vector<float>> FrameCopies::take(int slotIndex)
{
    Slots& s = *mSlots;
    Slots::Slot& slot = s.slots.at(size_t(slotIndex));
    const size_t count = slot.count;
    std::vector<std::vector<float>> fields(slot.used);
    std::string failure;
    if (cudaError_t e = cudaEventSynchronize(slot.copied); e != cudaSuccess)
        failure = std::string("CUDA copy of an exported frame failed: ") + cudaGetErrorString(e);
    for (size_t i = 0; i < slot.used && failure.empty(); ++i)
        fields[i].assign(slot.host + i * s.count, slot.host + i * s.count + count);
    {
        std::lock_guard<std::mutex> lock(s.mutex);
        slot.busy = false;
    }
    if (!failure.empty()) throw std::runtime_error(failure);
    return fields;
}

#else

struct FrameCopies::Slots {};

std::unique_ptr<FrameCopies> FrameCopies::make(const Solver&, int, size_t, std::string& whyNot)
{
    whyNot = "this build has no CUDA";
    return nullptr;
}
bool FrameCopies::fits(size_t, size_t) const { return false; }
int FrameCopies::start(const Solver&, const std::vector<std::string>&, size_t) { throw std::logic_error("no CUDA"); }
std::vector<std::vector<float>> FrameCopies::take(int) { throw std::logic_error("no CUDA"); }

#endif

FrameCopies::FrameCopies(std::unique_ptr<Slots> slots) : mSlots(std::move(slots)) {}
FrameCopies::~FrameCopies() = default;

} // namespace vbm::app
