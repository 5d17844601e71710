// SPDX-License-Identifier: Apache-2.0
// VBM consumer kernels at block width 128.
#include "VbmConsumerKernels.cuh"

namespace bench {
KernelRef vbmConsumerKernelW128(vbm::Resolver r, int channels) { return vbmConsumerKernelW<7>(r, channels); }
void launchVbmConsumerW128(vbm::Resolver r, const SparseProblem& p, cudaStream_t s) { launchVbmConsumerW<7>(r, p, s); }
} // namespace bench
