// SPDX-License-Identifier: Apache-2.0
// The kernel-resources table (see KernelResources.h).
#include "KernelResources.h"

#include "CudaCheck.h"
#include "vbm/Resolver.h"

#include <cstdio>

namespace bench {

using vbm::cuda::checkCuda;

ResourceRow resources(const std::string& name, const KernelRef& k)
{
    cudaFuncAttributes a{};
    checkCuda(cudaFuncGetAttributes(&a, k.function), "cudaFuncGetAttributes");
    int blocks = 0;
    checkCuda(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, k.function, k.blockSize, 0),
              "cudaOccupancyMaxActiveBlocksPerMultiprocessor");
    return {name, a.numRegs, int(a.localSizeBytes), int(a.sharedSizeBytes), k.blockSize, blocks * k.blockSize / 32};
}

std::vector<ResourceRow> collectKernelResources(const Options& opt)
{
    std::vector<ResourceRow> res;
    for (int C : opt.channels) {
        for (int l : opt.widths)
            for (vbm::Resolver r : vbm::AllResolvers)
                res.push_back(resources(std::string(vbm::resolverName(r)) + " w" + std::to_string(1 << l) + " C" +
                                            std::to_string(C),
                                        vbmConsumerKernel(r, l, C)));
        for (bool box : {true, false})
            res.push_back(resources(std::string("ReadAccessor ") + (box ? "box" : "cross") + " C" + std::to_string(C),
                                    accessorConsumerKernel(box, C)));
        for (bool box : {false, true})
            res.push_back(resources(std::string("dense ") + (box ? "27-point" : "7-point") + " C" + std::to_string(C),
                                    denseConsumerKernel(box, C)));
    }
    for (int l = 6; l <= 9; ++l)
        for (bool nano : {false, true})
            res.push_back(resources(std::string("decode ") + (nano ? "NanoVDB13 sweep" : "select") + " w" +
                                        std::to_string(1 << l),
                                    decodeKernel(nano, l)));
    return res;
}

void printKernelResources(const std::string& device, const std::vector<ResourceRow>& res)
{
    std::printf("## Kernel resources (sm_%s) and occupancy\n\n", device.substr(device.find("sm_") + 3, 2).c_str());
    std::printf("| kernel | registers | stack frame B | static smem B | block | resident warps/SM |\n"
                "|---|---|---|---|---|---|\n");
    for (const auto& r : res)
        std::printf("| %s | %d | %d | %d | %d | %d |\n", r.kernel.c_str(), r.regs, r.stack, r.smem, r.blockSize,
                    r.warpsPerSM);
}

} // namespace bench
