// SPDX-License-Identifier: Apache-2.0
// CUDA's side of the shared-memory path: Vulkan memory and a Vulkan timeline semaphore imported
// into CUDA (cudaImportExternalMemory, cudaImportExternalSemaphore), so the solver's field reaches
// the renderer by a device-to-device copy with no host round trip. Without CUDA in the build
// these report that interop is unavailable.
#pragma once

#include "VulkanContext.h"

#include <cstdint>
#include <optional>
#include <string>

namespace vbm::render {

/// The UUID of the CUDA device this process uses, or nothing (no CUDA in the build, or no GPU).
std::optional<DeviceUuid> cudaDeviceUuid();

/// "" if the renderer can share memory with a solver on CUDA (the solver runs on CUDA, the Vulkan
/// device is the CUDA device by UUID, and it can export memory and timeline semaphores), else why not.
std::string sharedPathWhyNot(const VulkanContext& vk, bool solverOnCuda);

/// Copies device memory to host memory on `stream` (a cudaStream_t) and waits for it: the
/// staging path when the solver runs on CUDA.
void cudaCopyToHost(void* dst, const void* deviceSrc, uint64_t bytes, void* stream);

/// A Vulkan buffer's memory and a timeline semaphore, imported into CUDA; takes ownership of
/// both file descriptors.
class CudaSharedField {
public:
    CudaSharedField(int memoryFd, uint64_t allocationSize, int semaphoreFd);
    ~CudaSharedField();
    CudaSharedField(const CudaSharedField&) = delete;
    CudaSharedField& operator=(const CudaSharedField&) = delete;

    /// Queues on `stream` (a cudaStream_t, the solver's): wait until the semaphore reaches
    /// `readDone` (Vulkan finished reading the last field), copy `bytes` from device memory `src`
    /// into the shared buffer at `offset`, signal `ready`. No host wait: the solver's next step, queued on
    /// the same stream, runs after the copy.
    void copyFrom(const void* src, uint64_t bytes, uint64_t offset, uint64_t readDone, uint64_t ready, void* stream);

private:
    void* mMemory = nullptr;    // cudaExternalMemory_t
    void* mSemaphore = nullptr; // cudaExternalSemaphore_t
    void* mDevicePtr = nullptr;
};

} // namespace vbm::render
