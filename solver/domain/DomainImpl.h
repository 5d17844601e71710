// SPDX-License-Identifier: Apache-2.0
// Domain<Exec>'s topology passes (domain/Domain.h), compiled once per backend in a unit of their
// own (solver/CMakeLists.txt: VBM_SOLVER_UNITS).
#pragma once

#include "domain/Domain.h"
#include "kernels/LaplacianRow.h"

namespace vbm::solver {

template <class Exec>
void Domain<Exec>::rebuild(const HostGridHandle& grid)
{
    adopt(ExecGrid<Exec>(grid));
    if (mMultigrid) mHierarchy = MultigridHierarchy<Exec>(grid, mFine, mRun, air());
    mRun.exec().synchronize();
}

template <class Exec>
void Domain<Exec>::adopt(ExecGrid<Exec>&& grid)
{
    Exec& exec = mRun.exec();
    exec.forgetReplays();
    mHierarchy = {}; // the old levels go first, not after the new ones are built
    mFine = std::move(grid);
    exec.reserve(mFine.valueCount());
    mDiag = Exec::template allocate<uint8_t>(mFine.valueCount());
    mRun.template cross<CountNeighbours>(mFine, mDiag.data());
    if (mTapTable) { // resolved once here, through the chosen resolver; read by every cross pass after
        Array<uint32_t> taps = Exec::template allocate<uint32_t>(6 * mFine.valueCount());
        mRun.template cross<StoreCrossNeighbours>(mFine, taps.data());
        mFine.adoptTapTable(std::move(taps));
    }
    if (mRegion) {
        mAir = Exec::template allocate<float>(mFine.valueCount());
        mRun.voxels(mFine, MarkAirCells{mFine.grid(), *mRegion, mAir.data()});
    }
}
} // namespace vbm::solver
