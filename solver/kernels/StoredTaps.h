// SPDX-License-Identifier: Apache-2.0
// The voxel tap table (scene `tap_table on`): the fine level's cross taps, resolved once per
// domain through the chosen resolver (StoreCrossNeighbours, 6 value indices per voxel) and then
// read by every Laplacian-type pass on that level instead of resolving them again. A body gets
// them through the same taps(f) interface a resolver gives, in cross order, so it computes the
// same sum in the same order: the fields are bitwise those of the resolver that filled the table.
// It costs 24 bytes per voxel and turns an issue-bound stencil pass (the decode and the six
// neighbour lookups) into a pass bound by memory.
#pragma once

#include "vbm/LeafTaps.h"

#include <cstdint>

namespace vbm::solver {

/// taps(f) of voxel i from a StoreCrossNeighbours table: f(tap, index) for the 7 cross taps,
/// centre first, in cross order.
struct StoredCrossTaps {
    const uint32_t* table;
    uint64_t i;
    template <typename F>
    __hostdev__ void operator()(F&& f) const
    {
        f(0, i);
        const uint32_t* row = table + 6 * i;
        for (int t = 1; t < CrossTapCount; ++t)
            f(t, uint64_t(row[t - 1]));
    }
};

/// A cross stencil body run as an element body over value indices, its taps from the table.
template <typename Body>
struct WithStoredTaps {
    const uint32_t* table;
    Body body;
    __hostdev__ void operator()(uint64_t i) const { body(i, StoredCrossTaps{table, i}); }
    __hostdev__ double sum(uint64_t i) const { return body(i, StoredCrossTaps{table, i}); }
};

} // namespace vbm::solver
