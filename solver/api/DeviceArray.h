// SPDX-License-Identifier: Apache-2.0
// A typed device allocation that frees itself, with checked copies to and from the host.
#pragma once

#include "CudaCheck.h"

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace vbm::cuda {

template <typename T>
class DeviceArray {
public:
    DeviceArray() = default;
    explicit DeviceArray(size_t count) : mCount(count)
    {
        if (count == 0) return;
        const cudaError_t err = cudaMalloc(&mData, count * sizeof(T));
        if (err != cudaSuccess) {
            (void)cudaGetLastError();
            checkCuda(err, ("cudaMalloc of " + std::to_string(count * sizeof(T)) + " bytes").c_str());
        }
    }
    explicit DeviceArray(const std::vector<T>& host) : DeviceArray(host.size()) { upload(host); }
    DeviceArray(const DeviceArray&) = delete;
    DeviceArray& operator=(const DeviceArray&) = delete;
    DeviceArray(DeviceArray&& o) noexcept : mData(std::exchange(o.mData, nullptr)), mCount(std::exchange(o.mCount, 0))
    {
    }
    DeviceArray& operator=(DeviceArray&& o) noexcept
    {
        std::swap(mData, o.mData);
        std::swap(mCount, o.mCount);
        return *this;
    }
    ~DeviceArray()
    {
        if (mData) cudaFree(mData);
    }

    T* data() { return mData; }
    const T* data() const { return mData; }
    size_t size() const { return mCount; }

    void upload(const T* host, size_t count)
    {
        checkCuda(cudaMemcpy(mData, host, count * sizeof(T), cudaMemcpyHostToDevice), "cudaMemcpy host to device");
        // A pageable copy may still be in flight when cudaMemcpy returns; kernels on
        // non-blocking streams must not start before it lands.
        checkCuda(cudaDeviceSynchronize(), "cudaMemcpy host to device");
    }
    void upload(const std::vector<T>& host) { upload(host.data(), host.size()); }
    std::vector<T> download() const
    {
        std::vector<T> host(mCount);
        if (mCount)
            checkCuda(cudaMemcpy(host.data(), mData, mCount * sizeof(T), cudaMemcpyDeviceToHost),
                      "cudaMemcpy device to host");
        return host;
    }
    /// Sets every byte; finished when it returns (so work on any stream sees it).
    void fill(int byte)
    {
        checkCuda(cudaMemset(mData, byte, mCount * sizeof(T)), "cudaMemset");
        checkCuda(cudaDeviceSynchronize(), "cudaMemset");
    }

private:
    T* mData = nullptr;
    size_t mCount = 0;
};

} // namespace vbm::cuda
