// SPDX-License-Identifier: Apache-2.0
// Runs kernel bodies over a level's VBM through the resolvers a StencilChoice names: the one
// place where the run-time choice (and the block width) becomes template arguments of the
// executor's launches. Laplacian-type passes take the choice's `laplacian` resolver, advection
// its `advection` one (a box resolver: ResolverRules.h).
#pragma once

#include "exec/ExecGrid.h"
#include "SolverTypes.h"

#include <stdexcept>

namespace vbm::solver {

template <class Exec>
class StencilRunner {
public:
    StencilRunner(Exec& exec, const StencilChoice& choice) : mExec(exec), mChoice(choice) {}

    void setChoice(const StencilChoice& c) { mChoice = c; }
    const StencilChoice& choice() const { return mChoice; }
    Exec& exec() { return mExec; }

    /// BodyT<fromBox>{args...} for every voxel of `on`, through the Laplacian-type resolver, or
    /// where `on` has a voxel tap table, its taps from there (in cross order: the same bits).
    template <template <bool> class BodyT, typename... Args>
    void cross(const ExecGrid<Exec>& on, Args... args)
    {
        if (const uint32_t* table = on.tapTable())
            return mExec.storedStencil(on.valueCount(), table, BodyT<false>{args...});
        dispatch(mChoice.laplacian, on, [&](auto l, auto r, const VbmView& v) {
            constexpr Resolver R = decltype(r)::value;
            mExec.template stencil<decltype(l)::value, R>(v, BodyT<isBoxResolver(R)>{args...});
        });
    }
    /// As cross, the body returning a double per voxel whose sum goes to finish (on the executor),
    /// summed in an order that depends on neither the resolver nor the width.
    template <template <bool> class BodyT, typename Finish, typename... Args>
    void crossSum(const ExecGrid<Exec>& on, const Finish& finish, Args... args)
    {
        if (const uint32_t* table = on.tapTable())
            return mExec.storedStencilSum(on.valueCount(), table, BodyT<false>{args...}, finish);
        dispatch(mChoice.laplacian, on, [&](auto l, auto r, const VbmView& v) {
            constexpr Resolver R = decltype(r)::value;
            mExec.template stencilSum<decltype(l)::value, R>(v, BodyT<isBoxResolver(R)>{args...}, finish);
        });
    }
    /// A box body (it reads all 27 taps) for every voxel of `on`, through the advection resolver.
    template <typename Body>
    void box(const ExecGrid<Exec>& on, const Body& body)
    {
        dispatch(mChoice.advection, on, [&](auto l, auto r, const VbmView& v) {
            constexpr Resolver R = decltype(r)::value;
            if constexpr (isBoxResolver(R))
                mExec.template stencil<decltype(l)::value, R>(v, body);
            else
                throw std::invalid_argument("advection needs a box resolver");
        });
    }
    /// A voxel body, body(index, leafIndex, voxelOffset), for every voxel of `on` (decode only).
    template <typename Body>
    void voxels(const ExecGrid<Exec>& on, const Body& body)
    {
        withSolverWidth(mChoice.log2BlockWidth, [&](auto l) {
            constexpr int L = decltype(l)::value;
            mExec.template voxels<L>(on.view(L), body);
        });
    }

private:
    template <typename F>
    void dispatch(Resolver r, const ExecGrid<Exec>& on, F&& f)
    {
        withSolverWidth(mChoice.log2BlockWidth,
                        [&](auto l) { withResolver(r, [&](auto tag) { f(l, tag, on.view(decltype(l)::value)); }); });
    }

    Exec& mExec;
    StencilChoice mChoice;
};

} // namespace vbm::solver
