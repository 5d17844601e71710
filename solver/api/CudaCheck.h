// SPDX-License-Identifier: Apache-2.0
// Turning CUDA runtime failures into one clear exception.
#pragma once

#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

namespace vbm::cuda {

/// A failed CUDA call: the message names the call, CUDA's reason and what to check.
struct CudaError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

inline void checkCuda(cudaError_t err, const char* what)
{
    if (err == cudaSuccess) return;
    std::string msg = std::string("CUDA ") + what + " failed: " + cudaGetErrorString(err);
    if (err == cudaErrorMemoryAllocation)
        msg += " (the GPU is out of memory: use a smaller grid)";
    else if (err == cudaErrorNoDevice || err == cudaErrorInsufficientDriver)
        msg += " (no usable NVIDIA GPU or driver: use the CPU backend)";
    throw CudaError(msg);
}

} // namespace vbm::cuda
