// SPDX-License-Identifier: Apache-2.0
// The order phases are listed in (see PhaseOrder.h).
#include "PhaseOrder.h"

#include <algorithm>

namespace vbm::app {

void mergeRunOrder(std::vector<Phase>& order, const std::vector<Phase>& ran)
{
    const auto listed = [&](Phase p) { return std::find(order.begin(), order.end(), p) != order.end(); };
    for (size_t i = 0; i < ran.size(); ++i) {
        if (listed(ran[i])) continue;
        auto at = order.end();
        for (size_t j = i + 1; j < ran.size() && at == order.end(); ++j)
            at = std::find(order.begin(), order.end(), ran[j]);
        order.insert(at, ran[i]);
    }
}

} // namespace vbm::app
