// SPDX-License-Identifier: Apache-2.0
// cuda-stencil-consumer: the CUDA example of the installed vbm-fluid package (vbm::vbm). The
// same hollow ball and Laplacian as stencil-consumer, on the GPU: the VBM metadata is built
// on the device (vbm::buildVoxelBlockManagerDevice) and must equal the host build word for
// word; a kernel runs the device block skeleton (vbm::runThisSlot, one CUDA thread block per
// VBM block) with the cached cross stencil, and its Laplacian must equal the host skeleton's
// bit for bit: the resolvers are the same __hostdev__ code on both sides. Needs a CUDA GPU.
#include <vbm/BlockSkeleton.h>
#include <vbm/BuildVoxelBlockManager.cuh>

#include <nanovdb/tools/CreateNanoGrid.h>
#include <nanovdb/tools/GridBuilder.h>

#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

constexpr int Log2BlockWidth = 7; // blocks of 128 voxels: 128 CUDA threads per block
constexpr vbm::Resolver Stencil = vbm::Resolver::computeCrossStencilCached;

void check(cudaError_t err, const char* what)
{
    if (err == cudaSuccess) return;
    std::fprintf(stderr, "cuda-stencil-consumer: %s failed: %s\n", what, cudaGetErrorString(err));
    std::exit(1);
}

// A device copy of a host vector (freed at exit: this is a short example).
template <typename T>
T* toDevice(const T* data, size_t count)
{
    T* d = nullptr;
    check(cudaMalloc(&d, count * sizeof(T)), "cudaMalloc");
    check(cudaMemcpy(d, data, count * sizeof(T), cudaMemcpyHostToDevice), "cudaMemcpy to the device");
    return d;
}

// The 7-point Laplacian of the sidecar f (indexed by value index; f[0] = 0 is the background).
// The skeleton is cooperative: every thread of the block calls it, also past the last voxel.
__global__ void laplacianKernel(vbm::VbmView v, const double* f, double* out)
{
    vbm::runThisSlot<Log2BlockWidth, Stencil>(v, blockIdx.x, [&](const vbm::SlotOf& s, auto&& taps) {
        double sum = 0.0;
        taps([&](int tap, uint64_t index) {
            if (tap != 0) sum += f[index];
        });
        out[s.index] = sum - 6.0 * f[s.index];
    });
}

nanovdb::GridHandle<nanovdb::HostBuffer> makeHollowBall()
{
    nanovdb::tools::build::Grid<float> shape(0.f);
    auto acc = shape.getAccessor();
    for (int i = -20; i <= 20; ++i)
        for (int j = -20; j <= 20; ++j)
            for (int k = -20; k <= 20; ++k) {
                const int r2 = i * i + j * j + k * k;
                if (r2 >= 10 * 10 && r2 <= 20 * 20) acc.setValue(nanovdb::Coord(i, j, k), 1.f);
            }
    return nanovdb::tools::createNanoGrid<nanovdb::tools::build::Grid<float>, nanovdb::ValueOnIndex>(shape, 0u, false,
                                                                                                     false);
}

} // namespace

int main()
{
    int devices = 0;
    check(cudaGetDeviceCount(&devices), "cudaGetDeviceCount (is there a CUDA GPU?)");

    auto handle = makeHollowBall();
    const vbm::IndexGrid* grid = handle.grid<nanovdb::ValueOnIndex>();
    if (const std::string why = vbm::checkVbmGrid(grid); !why.empty()) {
        std::fprintf(stderr, "cuda-stencil-consumer: the grid cannot carry a VBM: %s\n", why.c_str());
        return 1;
    }
    const vbm::VbmMetadata meta = vbm::buildVoxelBlockManagerHost<Log2BlockWidth>(grid);
    const vbm::VbmView hostView = vbm::hostView(grid, meta);

    // The field and the host Laplacian: the reference.
    std::vector<double> f(hostView.valueCount, 0.0), hostLaplacian(hostView.valueCount, 0.0);
    vbm::forEachSlotOnHost<Log2BlockWidth, Stencil>(
        hostView, 0, hostView.blockCount, [&](const vbm::SlotOf& s, auto&&) {
            const nanovdb::Coord c = vbm::leaves(grid)[s.leafIndex].offsetToGlobalCoord(s.voxelOffset);
            f[s.index] = double(c[0]) * c[0] + double(c[1]) * c[1] + double(c[2]) * c[2];
        });
    vbm::forEachSlotOnHost<Log2BlockWidth, Stencil>(hostView, 0, hostView.blockCount,
                                                    [&](const vbm::SlotOf& s, auto&& taps) {
                                                        double sum = 0.0;
                                                        taps([&](int tap, uint64_t index) {
                                                            if (tap != 0) sum += f[index];
                                                        });
                                                        hostLaplacian[s.index] = sum - 6.0 * f[s.index];
                                                    });

    // The grid on the device (one contiguous buffer), its metadata built there.
    const auto* dGrid = reinterpret_cast<const vbm::IndexGrid*>(
        toDevice(static_cast<const uint8_t*>(handle.data()), handle.bufferSize()));
    std::vector<uint32_t> firstLeafID(meta.firstLeafID.size());
    std::vector<uint64_t> jumpMap(meta.jumpMap.size());
    uint32_t* dFirstLeafID = toDevice(firstLeafID.data(), firstLeafID.size());
    uint64_t* dJumpMap = toDevice(jumpMap.data(), jumpMap.size());
    check(vbm::buildVoxelBlockManagerDevice<Log2BlockWidth>(dGrid, grid->tree().nodeCount(0), meta.extent, dFirstLeafID,
                                                            dJumpMap),
          "buildVoxelBlockManagerDevice");

    vbm::VbmView deviceView = hostView;
    deviceView.grid = dGrid;
    deviceView.firstLeafID = dFirstLeafID;
    deviceView.jumpMap = dJumpMap;
    const double* dF = toDevice(f.data(), f.size());
    std::vector<double> laplacian(f.size(), 0.0);
    double* dLaplacian = toDevice(laplacian.data(), laplacian.size());
    laplacianKernel<<<unsigned(deviceView.blockCount), 1u << Log2BlockWidth>>>(deviceView, dF, dLaplacian);
    check(cudaGetLastError(), "launching laplacianKernel");
    check(cudaMemcpy(laplacian.data(), dLaplacian, laplacian.size() * sizeof(double), cudaMemcpyDeviceToHost),
          "cudaMemcpy of the Laplacian");
    check(cudaMemcpy(firstLeafID.data(), dFirstLeafID, firstLeafID.size() * sizeof(uint32_t), cudaMemcpyDeviceToHost),
          "cudaMemcpy of firstLeafID");
    check(cudaMemcpy(jumpMap.data(), dJumpMap, jumpMap.size() * sizeof(uint64_t), cudaMemcpyDeviceToHost),
          "cudaMemcpy of jumpMap");

    const bool sameMetadata = firstLeafID == meta.firstLeafID && jumpMap == meta.jumpMap;
    uint64_t differ = 0;
    for (size_t i = 0; i < laplacian.size(); ++i)
        differ += laplacian[i] != hostLaplacian[i];
    const bool ok = sameMetadata && differ == 0;
    std::printf("cuda-stencil-consumer: %s: %llu voxels in %llu blocks of %d (%s), device metadata %s the host's, "
                "%llu Laplacian values differ from the host\n",
                ok ? "passed" : "FAILED", (unsigned long long)grid->activeVoxelCount(),
                (unsigned long long)deviceView.blockCount, 1 << Log2BlockWidth, vbm::resolverName(Stencil),
                sameMetadata ? "equals" : "DIFFERS FROM", (unsigned long long)differ);
    return ok ? 0 : 1;
}
