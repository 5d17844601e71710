// SPDX-License-Identifier: Apache-2.0
// A simulation on one executor (HostExec or CudaExec): the Domain, the Fields and the steps
// over them, composed once. Heat runs HeatStep; smoke runs SmokeSources, Advection and
// Projection. The same kernel bodies run on the CPU and on the GPU. Included by SolverCpu.cpp
// and SolverCuda.cu only; the steps' passes are compiled apart, a unit per step and backend
// (their *Impl.h, solver/CMakeLists.txt), so these two instantiate few kernels of their own.
#pragma once

#include "domain/ActiveSetRebuild.h"
#include "steps/Advection.h"
#include "steps/ConjugateGradient.h"
#include "domain/Domain.h"
#include "exec/ExecRegion.h"
#include "domain/Fields.h"
#include "steps/HeatStep.h"
#include "steps/Multigrid.h"
#include "exec/PhaseTimer.h"
#include "steps/Projection.h"
#include "steps/SmokeSources.h"
#include "SolverEngine.h"
#include "exec/StencilRunner.h"

namespace vbm::solver {

template <class Exec>
class Simulation final : public SolverEngine {
public:
    Simulation(const Scene& scene, const StencilChoice& choice, bool tapTable)
        : mKind(scene.kind), mRun(mExec, choice), mRegion(scene.region),
          mDomain(mRun, scene.grid, usesMultigrid(scene), scene.adapt.enabled() ? &mRegion.view() : nullptr,
                  tapTable),
          mFields(scene, mDomain.valueCount()), mMultigrid(mRun, mDomain), mCg(mRun, mDomain, mMultigrid),
          mTimer(mExec), mHeat(mRun, mDomain, mFields, mCg), mSources(mRun, mDomain, mFields),
          mAdvection(mRun, mDomain, mFields), mProjection(mRun, mDomain, mFields, mCg),
          mRebuild(mRun, mDomain, mFields, mRegion, scene),
          mSmokeThreshold(scene.adapt.enabled() ? float(scene.adapt.threshold) : -1.f)
    {
        if (mSmokeThreshold >= 0) mSmokeCount = Exec::template allocate<double>(1);
        mStepsDone = scene.startStep;
        // a resumed run: whether its last step left smoke at the edge is read off the fields again
        if (mStepsDone > 0) mRebuild.watchEdge(mStepsDone);
        mExec.synchronize();
    }

    const FrameTimings& step(const SimulationParams& p) override
    {
        const uint64_t number = mStepsDone + 1;
        try {
            return stepOnce(p);
        } catch (const NonFiniteError& e) {
            throw NonFiniteError("step " + std::to_string(number) + ": " + e.what() +
                                 ": the simulation is unstable (lower dt)");
        }
    }

    const float* fieldData(Channel c) const override
    {
        if (!isPacked(c)) return mFields[c];
        // a float copy in a workspace array (dead between steps), made now: valid until the next step
        Simulation& self = const_cast<Simulation&>(*this);
        float* copy = self.unpack(c);
        self.mExec.synchronize();
        return copy;
    }
    std::vector<float> download(Channel c) const override
    {
        if (c == Channel::Emitter) return mFields.downloadEmitter();
        std::vector<float> values = Exec::download(mFields.array(isPacked(c) ? Channel::Density : c));
        values.resize(mFields.valueCount()); // the arrays may have room to grow (Fields::remap)
        if (isPacked(c))
            for (float& v : values)
                v = pairValue(v, c == Channel::Temperature);
        return values;
    }
    MemoryReport memory() const override
    {
        MemoryReport m;
        m.activeVoxels = mDomain.activeVoxels();
        m.gridAndVbm = mDomain.gridAndVbmBytes();
        m.fields = mFields.channelBytes() + mDomain.diagBytes();
        m.temporaries = mFields.workspaceBytes() + mDomain.levelArrayBytes() + mExec.scratchBytes();
        return m;
    }
    void* cudaStream() const override
    {
        if constexpr (Exec::OnDevice)
            return mExec.stream();
        else
            return nullptr;
    }
    uint64_t activeVoxels() const override { return mDomain.activeVoxels(); }
    uint64_t topologyVersion() const override { return mTopologyVersion; }
    uint64_t stepsDone() const override { return mStepsDone; }
    HostGridHandle hostGrid() const override { return mDomain.fine().hostCopy(); }
    uint64_t blockCount(int log2BlockWidth) const override { return mDomain.fine().view(log2BlockWidth).blockCount; }
    void setChoice(const StencilChoice& choice) override { mRun.setChoice(choice); }
    const StencilChoice& choice() const override { return mRun.choice(); }

private:
    /// Every this many steps (and after the first) each field is checked finite: one max
    /// reduction per field, where NaN counts as infinity (AbsOrInf.h).
    static constexpr uint64_t FiniteCheckEvery = 10;

    const FrameTimings& stepOnce(const SimulationParams& p)
    {
        mTimer.beginStep();
        if (mRebuild.due(mStepsDone)) {
            mTimer.report().rebuiltEarly = mRebuild.early();
            mRebuild.run(p, mTimer);
            ++mTopologyVersion;
            mTimer.report().rebuilt = true;
        }
        if (mKind == SimulationKind::Heat) {
            mHeat.run(p, mTimer);
        } else {
            mSources.run(p, mTimer, mStepsDone);
            mTimer.report().substeps = mAdvection.run(p, mTimer);
            mProjection.run(p, mTimer);
        }
        mRebuild.watchEdge(mStepsDone + 1); // the solver's own work: inside the step's time
        mTimer.endStep();
        mTimer.report().activeVoxels = mDomain.activeVoxels();
        ++mStepsDone;
        if (mKind == SimulationKind::Smoke) mTimer.report().divergenceAfter = mProjection.divergenceAfter();
        if (mSmokeThreshold >= 0) mTimer.report().smokeVoxels = smokeVoxels();
        if (mStepsDone % FiniteCheckEvery == 1) checkFinite();
        return mTimer.read();
    }

    /// Whether channel c is one of the half pairs (Fields::halfScalars).
    bool isPacked(Channel c) const
    {
        return mFields.halfScalars() && (c == Channel::Density || c == Channel::Temperature);
    }
    /// A float copy of packed channel c in a workspace array, dead between steps (density in
    /// slot 0, temperature in slot 1: both may be wanted at once, by the fire look).
    float* unpack(Channel c)
    {
        static_assert(slotOf(Temp::PressureRhs) != slotOf(Temp::CgResidual));
        float* out = mFields[c == Channel::Density ? Temp::PressureRhs : Temp::CgResidual];
        mExec.elements(mDomain.valueCount(), UnpackScalar{mFields[Channel::Density], out, c == Channel::Temperature});
        return out;
    }

    /// The voxels whose density exceeds the adapt threshold (outside the step's time).
    uint64_t smokeVoxels()
    {
        mExec.elementsSum(mDomain.valueCount(), DensityAbove{mFields.scalars(), mSmokeThreshold},
                          StoreTotal{mSmokeCount.data()});
        return uint64_t(mExec.read(mSmokeCount, 1)[0]);
    }

    void checkFinite()
    {
        for (Channel c : userChannels(mKind, mFields.has(Channel::Fuel))) {
            const float* f = isPacked(c) ? unpack(c) : mFields[c];
            if (!std::isfinite(mExec.maxAbs(f, f, f, mDomain.valueCount())))
                throw NonFiniteError(std::string("the field '") + channelName(c) + "' is not finite (NaN or infinity)");
        }
    }
    static bool usesMultigrid(const Scene& s)
    {
        return s.kind == SimulationKind::Smoke && s.params.pressurePreconditioner == Preconditioner::Multigrid;
    }

    uint64_t mTopologyVersion = 0, mStepsDone = 0;
    Exec mExec; // first: everything below lives in its memory
    SimulationKind mKind;
    StencilRunner<Exec> mRun;
    ExecRegion<Exec> mRegion; ///< adaptive scenes' (small otherwise: the balls only)
    Domain<Exec> mDomain;
    Fields<Exec> mFields;
    Multigrid<Exec> mMultigrid;
    ConjugateGradient<Exec> mCg;
    PhaseTimer<Exec> mTimer;
    HeatStep<Exec> mHeat;
    SmokeSources<Exec> mSources;
    Advection<Exec> mAdvection;
    Projection<Exec> mProjection;
    ActiveSetRebuild<Exec> mRebuild;
    float mSmokeThreshold;                          ///< adaptive scenes' threshold; below 0: not counted
    typename Exec::template Array<double> mSmokeCount; ///< where the count's sum lands
};

} // namespace vbm::solver
