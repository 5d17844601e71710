// SPDX-License-Identifier: Apache-2.0
// CUDA's side of the shared-memory path (see CudaInterop.h).
#include "CudaInterop.h"

#if VBM_HAVE_CUDA
#include "CudaCheck.h"

#include <cuda_runtime.h>

#include <cstring>
#include <unistd.h>
#endif

namespace vbm::render {

std::string sharedPathWhyNot(const VulkanContext& vk, bool solverOnCuda)
{
    if (!solverOnCuda) return "the solver runs on the CPU";
    const auto cuda = cudaDeviceUuid();
    if (!cuda) return "no CUDA device";
    if (*cuda != vk.deviceUuid()) return "the Vulkan device (" + vk.deviceName() + ") is not the CUDA device";
    if (!vk.canExportToCuda()) return vk.exportWhyNot();
    return "";
}

#if VBM_HAVE_CUDA

std::optional<DeviceUuid> cudaDeviceUuid()
{
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
        cudaGetLastError(); // clear the sticky "no device" error
        return std::nullopt;
    }
    int device = 0;
    cudaDeviceProp prop{};
    if (cudaGetDevice(&device) != cudaSuccess || cudaGetDeviceProperties(&prop, device) != cudaSuccess)
        return std::nullopt;
    DeviceUuid uuid;
    static_assert(sizeof(prop.uuid.bytes) == VK_UUID_SIZE);
    std::memcpy(uuid.data(), prop.uuid.bytes, VK_UUID_SIZE);
    return uuid;
}

void cudaCopyToHost(void* dst, const void* deviceSrc, uint64_t bytes, void* stream)
{
    auto s = static_cast<cudaStream_t>(stream);
    cuda::checkCuda(cudaMemcpyAsync(dst, deviceSrc, bytes, cudaMemcpyDeviceToHost, s), "copy of the field to the host");
    cuda::checkCuda(cudaStreamSynchronize(s), "copy of the field to the host");
}

CudaSharedField::CudaSharedField(int memoryFd, uint64_t allocationSize, int semaphoreFd)
{
    cudaExternalMemoryHandleDesc mem{};
    mem.type = cudaExternalMemoryHandleTypeOpaqueFd;
    mem.handle.fd = memoryFd;
    mem.size = allocationSize;
    mem.flags = cudaExternalMemoryDedicated; // the Vulkan allocation is dedicated to its buffer
    cudaExternalMemory_t extMem = nullptr;
    if (cudaImportExternalMemory(&extMem, &mem) != cudaSuccess) {
        ::close(memoryFd), ::close(semaphoreFd);
        cuda::checkCuda(cudaGetLastError(), "cudaImportExternalMemory (the Vulkan field buffer)");
    }
    mMemory = extMem;
    cudaExternalMemoryBufferDesc buf{};
    buf.offset = 0;
    buf.size = allocationSize;
    cuda::checkCuda(cudaExternalMemoryGetMappedBuffer(&mDevicePtr, extMem, &buf),
                    "cudaExternalMemoryGetMappedBuffer (the Vulkan field buffer)");

    cudaExternalSemaphoreHandleDesc sem{};
    sem.type = cudaExternalSemaphoreHandleTypeTimelineSemaphoreFd;
    sem.handle.fd = semaphoreFd;
    cudaExternalSemaphore_t extSem = nullptr;
    if (cudaImportExternalSemaphore(&extSem, &sem) != cudaSuccess) {
        ::close(semaphoreFd);
        cuda::checkCuda(cudaGetLastError(), "cudaImportExternalSemaphore (the Vulkan timeline semaphore)");
    }
    mSemaphore = extSem;
}

CudaSharedField::~CudaSharedField()
{
    cudaDeviceSynchronize(); // nothing queued may still use the memory or the semaphore
    if (mSemaphore) cudaDestroyExternalSemaphore(static_cast<cudaExternalSemaphore_t>(mSemaphore));
    if (mDevicePtr) cudaFree(mDevicePtr);
    if (mMemory) cudaDestroyExternalMemory(static_cast<cudaExternalMemory_t>(mMemory));
}

void CudaSharedField::copyFrom(const void* src, uint64_t bytes, uint64_t offset, uint64_t readDone, uint64_t ready,
                               void* onStream)
{
    auto stream = static_cast<cudaStream_t>(onStream);
    auto sem = static_cast<cudaExternalSemaphore_t>(mSemaphore);
    cudaExternalSemaphoreWaitParams wait{};
    wait.params.fence.value = readDone;
    cuda::checkCuda(cudaWaitExternalSemaphoresAsync(&sem, &wait, 1, stream),
                    "cudaWaitExternalSemaphoresAsync (Vulkan's read of the last field)");
    cuda::checkCuda(cudaMemcpyAsync(static_cast<char*>(mDevicePtr) + offset, src, bytes, cudaMemcpyDeviceToDevice, stream),
                    "the device-to-device copy of the field into the shared buffer");
    cudaExternalSemaphoreSignalParams signal{};
    signal.params.fence.value = ready;
    cuda::checkCuda(cudaSignalExternalSemaphoresAsync(&sem, &signal, 1, stream),
                    "cudaSignalExternalSemaphoresAsync (field ready for Vulkan)");
}

#else

std::optional<DeviceUuid> cudaDeviceUuid() { return std::nullopt; }

void cudaCopyToHost(void*, const void*, uint64_t, void*)
{
    throw std::runtime_error("this build has no CUDA: the field is not in device memory");
}

CudaSharedField::CudaSharedField(int, uint64_t, int)
{
    throw std::runtime_error("this build has no CUDA: the shared CUDA-Vulkan path is unavailable");
}
CudaSharedField::~CudaSharedField() = default;
void CudaSharedField::copyFrom(const void*, uint64_t, uint64_t, uint64_t, uint64_t, void*) {}

#endif

} // namespace vbm::render
