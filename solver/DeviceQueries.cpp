// SPDX-License-Identifier: Apache-2.0
// Device availability and description (see DeviceQueries.h). Plain C++ over the CUDA runtime
// API, so every target can ask without being compiled by nvcc.
#include "DeviceQueries.h"

#include "vbm/HostBlockExecutor.h"

#if VBM_HAVE_CUDA
#include "CudaCheck.h"

#include <cuda_runtime.h>
#endif

#include <stdexcept>

namespace vbm {

#if VBM_HAVE_CUDA
std::string cudaUnavailableReason()
{
    int count = 0;
    const cudaError_t err = cudaGetDeviceCount(&count);
    if (err != cudaSuccess) {
        (void)cudaGetLastError();
        return std::string("no CUDA device (") + cudaGetErrorString(err) + ")";
    }
    if (count == 0) return "no CUDA device";
    return "";
}

std::string cudaDeviceDescription()
{
    int dev = 0;
    cuda::checkCuda(cudaGetDevice(&dev), "cudaGetDevice");
    cudaDeviceProp p{};
    cuda::checkCuda(cudaGetDeviceProperties(&p, dev), "cudaGetDeviceProperties");
    return std::string(p.name) + " (sm_" + std::to_string(p.major) + std::to_string(p.minor) + ")";
}
#else
std::string cudaUnavailableReason() { return "this build has no CUDA backend (no nvcc was found)"; }
std::string cudaDeviceDescription() { throw std::runtime_error(cudaUnavailableReason()); }
#endif

std::string backendDeviceDescription(Backend backend)
{
    if (backend == Backend::Cuda) return cudaDeviceDescription();
    return "CPU, " + std::to_string(hostThreadCount()) + " threads";
}

} // namespace vbm
