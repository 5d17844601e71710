// SPDX-License-Identifier: Apache-2.0
// vbm-bench --backend cpu's consumer runs (see CpuVariants.h).
#include "CpuVariants.h"

#include "vbm/CpuBlockSkeleton.h"
#include "vbm/SidecarConsumers.h"

#include <stdexcept>
#include <type_traits>

namespace bench {

namespace {

template <int C>
struct SumBody {
    const float* sidecar;
    float* out;
    template <typename Taps>
    void operator()(uint64_t i, Taps&& taps) const
    {
        vbm::BoxSumAccumulator<C> sum{sidecar};
        taps(sum);
        for (int ch = 0; ch < C; ++ch)
            out[i * C + ch] = sum.acc[ch];
    }
};

template <int L, vbm::Resolver R, int C>
void runOne(const vbm::VbmView& v, HostForm form, const float* sidecar, float* out)
{
    const SumBody<C> body{sidecar, out};
    // The CPU form is what the solver's CPU executor runs for every stencil pass
    // (HostExec::stencil calls forEachSlotOnHost).
    if (form == HostForm::Cpu) {
        vbm::forEachSlotOnHost<L, R>(v, 0, v.blockCount, [&](const vbm::SlotOf& s, auto&& taps) { body(s.index, taps); });
    } else {
        vbm::forEachSlotOnHostShared<L, R>(v, 0, v.blockCount,
                                           [&](const vbm::SlotOf& s, auto&& taps) { body(s.index, taps); });
    }
}

template <typename F>
void withChannelCount(int channels, F&& f)
{
    switch (channels) {
    case 1: return f(std::integral_constant<int, 1>{});
    case 2: return f(std::integral_constant<int, 2>{});
    case 4: return f(std::integral_constant<int, 4>{});
    case 8: return f(std::integral_constant<int, 8>{});
    case 16: return f(std::integral_constant<int, 16>{});
    default: throw std::invalid_argument("channels must be 1, 2, 4, 8 or 16");
    }
}

} // namespace

void runOurConsumer(const vbm::VbmView& v, int log2Width, vbm::Resolver r, HostForm form, int channels,
                    const float* sidecar, float* out)
{
    if (log2Width != 7 && log2Width != 9) throw std::invalid_argument("block width must be 128 or 512");
    vbm::withResolver(r, [&](auto tag) {
        constexpr vbm::Resolver R = decltype(tag)::value;
        if constexpr (R == vbm::Resolver::NanoVDB13) {
            throw std::invalid_argument("NanoVDB13 is NanoVDB's CUDA-only path");
        } else {
            withChannelCount(channels, [&](auto c) {
                if (log2Width == 7)
                    runOne<7, R, decltype(c)::value>(v, form, sidecar, out);
                else
                    runOne<9, R, decltype(c)::value>(v, form, sidecar, out);
            });
        }
    });
}

} // namespace bench
