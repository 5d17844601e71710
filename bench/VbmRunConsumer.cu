// SPDX-License-Identifier: Apache-2.0
// The VBM consumer through the run form of the block skeleton (vbm::runSlotRun): a thread takes
// K consecutive slots, decodes the first and steps to the others; the cached resolvers read the
// per-leaf tables. The same consumer as VbmConsumerKernels.cuh, so the outputs are compared
// bytewise with the one-slot-per-thread variants'.
#include "VbmConsumerKernels.cuh"

#include <stdexcept>
#include <string>

namespace bench {

namespace {

constexpr int RunThreads = 256;

// Resident threads per SM the launch bounds ask for: as the one-slot consumers (box 1024, at
// most 64 registers; cross 1536, at most 40).
template <vbm::Resolver R>
constexpr int runMinBlocksPerSM()
{
    return (vbm::isBoxResolver(R) ? 1024 : 1536) / RunThreads;
}

template <int L, vbm::Resolver R, int C, int K>
__global__ void __launch_bounds__(RunThreads, runMinBlocksPerSM<R>()) vbmRunConsumer(SparseProblem p)
{
    using namespace vbm;
    using Layout = RunLayout<L, K>;
    const uint64_t run = uint64_t(blockIdx.x) * RunThreads + threadIdx.x;
    const uint64_t block = Layout::blockOf(run);
    if (block >= p.blockCount) return;
    runSlotRun<L, R, K>(viewOf(p), block, Layout::firstSlotOf(run), SidecarSumBody<C>{p.sidecar, p.out});
}

template <typename F>
decltype(auto) withRunLength(int k, F&& f)
{
    switch (k) {
    case 2:
        return f(std::integral_constant<int, 2>{});
    case 4:
        return f(std::integral_constant<int, 4>{});
    case 8:
        return f(std::integral_constant<int, 8>{});
    }
    throw std::invalid_argument("run length must be 2, 4 or 8, got " + std::to_string(k));
}

template <typename F>
decltype(auto) withRunWidth(int log2Width, F&& f)
{
    switch (log2Width) {
    case 7:
        return f(std::integral_constant<int, 7>{});
    case 9:
        return f(std::integral_constant<int, 9>{});
    }
    throw std::invalid_argument("run consumers are compiled for widths 128 and 512");
}

template <typename F>
decltype(auto) withRunKernel(vbm::Resolver r, int runLength, int log2Width, int channels, F&& f)
{
    if (channels != 1) throw std::invalid_argument("run consumers are compiled for C = 1");
    if (r == vbm::Resolver::NanoVDB13) throw std::invalid_argument("NanoVDB13 has no run form");
    return vbm::withResolver(r, [&](auto tag) {
        constexpr vbm::Resolver R = decltype(tag)::value;
        if constexpr (R == vbm::Resolver::NanoVDB13) {
            return f(&vbmRunConsumer<7, vbm::Resolver::computeBoxStencil, 1, 2>); // unreachable
        } else {
            return withRunWidth(log2Width, [&](auto l) {
                return withRunLength(runLength, [&](auto k) {
                    return f(&vbmRunConsumer<decltype(l)::value, R, 1, decltype(k)::value>);
                });
            });
        }
    });
}

} // namespace

bool hasRunConsumer(vbm::Resolver r, int channels) { return r != vbm::Resolver::NanoVDB13 && channels == 1; }

KernelRef vbmRunConsumerKernel(vbm::Resolver r, int runLength, int log2Width, int channels)
{
    return withRunKernel(r, runLength, log2Width, channels, [](auto kernel) {
        return KernelRef{reinterpret_cast<const void*>(kernel), RunThreads};
    });
}

void launchVbmRunConsumer(vbm::Resolver r, int runLength, const SparseProblem& p, cudaStream_t stream)
{
    const uint64_t threads = p.blockCount * ((uint64_t(1) << p.log2Width) / uint64_t(runLength));
    const unsigned blocks = unsigned((threads + RunThreads - 1) / RunThreads);
    if (blocks == 0) return;
    withRunKernel(r, runLength, p.log2Width, p.channels, [&](auto kernel) {
        kernel<<<blocks, RunThreads, 0, stream>>>(p);
        return 0;
    });
}

} // namespace bench
