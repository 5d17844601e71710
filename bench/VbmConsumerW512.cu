// SPDX-License-Identifier: Apache-2.0
// VBM consumer kernels at block width 512, and the width dispatch.
#include "VbmConsumerKernels.cuh"

namespace bench {
KernelRef vbmConsumerKernelW128(vbm::Resolver r, int channels);
void launchVbmConsumerW128(vbm::Resolver r, const SparseProblem& p, cudaStream_t s);

KernelRef vbmConsumerKernel(vbm::Resolver r, int log2Width, int channels)
{
    if (log2Width == 7) return vbmConsumerKernelW128(r, channels);
    if (log2Width == 9) return vbmConsumerKernelW<9>(r, channels);
    throw std::invalid_argument("vbm-bench consumers are built for block widths 128 and 512");
}

void launchVbmConsumer(vbm::Resolver r, const SparseProblem& p, cudaStream_t s)
{
    if (p.log2Width == 7) return launchVbmConsumerW128(r, p, s);
    if (p.log2Width == 9) return launchVbmConsumerW<9>(r, p, s);
    throw std::invalid_argument("vbm-bench consumers are built for block widths 128 and 512");
}
} // namespace bench
