// SPDX-License-Identifier: Apache-2.0
// Runs a resolver over blocks of a VBM and checks the taps it produced against NanoVDB's
// ReadAccessor, slot by slot. The host run goes through the host block executor; the
// CUDA run (DeviceRuns.h) produces the same layout, so one checker serves both.
#pragma once

#include "vbm/BuildVoxelBlockManager.h"
#include "vbm/Resolver.h"

#include <cstdint>
#include <string>
#include <vector>

namespace vbm {

/// Value of a tap no resolver wrote (slots past the last voxel, idle threads).
inline constexpr uint64_t PoisonTap = 0xdeadbeefcafef00dull;

/// Which host form of the block skeleton a host run goes through: the CPU form
/// (CpuBlockSkeleton.h, what the CPU backend runs), the shared form (the GPU's code slot by
/// slot, BlockSkeleton.h), or the shared form with the grid's per-leaf neighbour tables in the
/// view (LeafNeighbourTable.h: the cached resolvers read rows there instead of staging), or the
/// run form (runSlotRun, the GPU's run code; a thread's runs of RunFormLength slots) with the
/// per-leaf tables, or without them (the cached resolvers then walk the tree).
enum class HostForm { Cpu, Shared, SharedLeafTables, Runs, RunsWithoutTables };

/// Slots per run of the HostForm::Runs forms.
inline constexpr int RunFormLength = 4;

/// Every host form, for tests that go through all.
inline constexpr HostForm AllHostForms[] = {HostForm::Cpu, HostForm::Shared, HostForm::SharedLeafTables, HostForm::Runs,
                                            HostForm::RunsWithoutTables};

/// A name for test traces and reports.
inline const char* hostFormName(HostForm f)
{
    switch (f) {
    case HostForm::Cpu:
        return "CPU form";
    case HostForm::Shared:
        return "shared form";
    case HostForm::SharedLeafTables:
        return "shared form, leaf tables";
    case HostForm::Runs:
        return "run form, leaf tables";
    case HostForm::RunsWithoutTables:
        return "run form, no tables";
    }
    return "?";
}

/// The signs (sx, sy, sz) of box octant o (0..7): bit 2, 1, 0 set for +x, +y, +z.
inline void octantSigns(int o, int& sx, int& sy, int& sz)
{
    sx = (o & 4) ? 1 : -1, sy = (o & 2) ? 1 : -1, sz = (o & 1) ? 1 : -1;
}

/// Taps of blocks [blockBegin, blockEnd): taps[((b - blockBegin)*BlockWidth + slot)*tapCount(r) + tap].
/// Computed on the host: decode, then resolver r (one of the six; not NanoVDB13). With octant
/// o in 0..7 (box resolvers), only that octant's taps are resolved (SlotTaps::octant); the others
/// stay PoisonTap.
std::vector<uint64_t> resolveTapsOnHost(const IndexGrid* grid, const VbmMetadata& vbm, Resolver r, uint64_t blockBegin,
                                        uint64_t blockEnd, HostForm form = HostForm::Cpu, int octant = -1);

/// Outcome of a check.
struct CheckResult {
    uint64_t checkedSlots = 0; ///< slots holding an active voxel that were compared
    uint64_t idleSlots = 0;    ///< slots that had to stay untouched, and did unless counted below
    uint64_t mismatches = 0;
    std::string firstMismatch; ///< a readable description of the first one
    bool ok() const { return mismatches == 0; }
};

/// Checks taps (layout of resolveTapsOnHost) of resolver shape `box` against a ReadAccessor
/// oracle. Slots past the last active voxel, and odd slots when oddSlotsIdle, must hold PoisonTap.
CheckResult checkTaps(const IndexGrid* grid, const VbmMetadata& vbm, bool box, uint64_t blockBegin, uint64_t blockEnd,
                      const std::vector<uint64_t>& taps, bool oddSlotsIdle = false);

/// Checks a decode of all blocks (leafIndex/voxelOffset per slot): active slots must name the
/// voxel whose value index is the slot's, the rest must hold the sentinels.
CheckResult checkDecode(const IndexGrid* grid, const VbmMetadata& vbm, const std::vector<uint32_t>& leafIndex,
                        const std::vector<uint16_t>& voxelOffset);

/// Decodes all blocks on the host.
void decodeOnHost(const IndexGrid* grid, const VbmMetadata& vbm, std::vector<uint32_t>& leafIndex,
                  std::vector<uint16_t>& voxelOffset);

/// Builds the metadata on the host for a width of 2^log2BlockWidth.
VbmMetadata buildVbmOnHost(const IndexGrid* grid, int log2BlockWidth);

/// Blocks spanning more than MaxCachedLeaves leaves: those the cached forms resolve by tree walk.
uint64_t countFallbackBlocks(const VbmMetadata& vbm);

/// Sidecar consumer outputs, C floats per value index (index 0 unused): the 27-tap box sum for
/// box shape, the 7-point Laplacian otherwise (box resolvers give it their cross taps).
std::vector<float> applyConsumerOnHost(const IndexGrid* grid, const VbmMetadata& vbm, Resolver r, bool laplacian,
                                       int channels, const std::vector<float>& sidecar, HostForm form = HostForm::Cpu);

/// Random non-zero sidecar values, channels per value index, indices 0..lastOffset.
std::vector<float> randomSidecar(uint64_t valueCount, int channels, uint64_t seed);

} // namespace vbm
