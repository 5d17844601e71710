// SPDX-License-Identifier: Apache-2.0
// The kernel-resources table: registers, stack frame, static shared memory and resident warps
// per SM of every kernel vbm-bench times, as the runtime reports them for this device.
#pragma once

#include "BenchKernels.h"
#include "BenchOptions.h"

#include <string>
#include <vector>

namespace bench {

/// One kernel's resources and occupancy at its launch block size.
struct ResourceRow {
    std::string kernel;
    int regs, stack, smem, blockSize, warpsPerSM;
};

/// Asks the runtime for one kernel's attributes and its occupancy at k.blockSize.
ResourceRow resources(const std::string& name, const KernelRef& k);

/// Every kernel of a run: the consumers at each width and channel count of `opt` (all seven
/// resolvers), ReadAccessor and dense at each channel count, and decode at widths 64..512.
std::vector<ResourceRow> collectKernelResources(const Options& opt);

/// Prints the table under "## Kernel resources (sm_XY) and occupancy"; `device` is
/// vbm::cudaDeviceDescription()'s line, which names the architecture.
void printKernelResources(const std::string& device, const std::vector<ResourceRow>& rows);

} // namespace bench
