// SPDX-License-Identifier: Apache-2.0
// The solver facade (see Solver.h): the parameters live here, and the choice of resolvers is
// taken checked (ResolverRules.h); the engine (Simulation<Exec>) holds what lives in backend
// memory and the choice its passes run with.
#include "Solver.h"

#include "domain/ActiveSet.h"
#include "DeviceQueries.h"
#include "domain/Fields.h"
#include "MemoryPlan.h"
#include "ResolverRules.h"
#include "SolverEngine.h"

#include <stdexcept>

namespace vbm {

#if !VBM_HAVE_CUDA
std::unique_ptr<solver::SolverEngine> solver::makeCudaEngine(const Scene&, const StencilChoice&, bool)
{
    throw std::runtime_error("this build has no CUDA backend (no nvcc was found): use --backend cpu");
}
#endif

namespace {

solver::Channel channelOf(const std::string& name, SimulationKind kind, bool fire)
{
    if (const auto c = solver::parseChannel(name, kind, fire)) return *c;
    throw std::invalid_argument("no field '" + name + "' in this simulation");
}

} // namespace

Solver::Solver(const Scene& scene, Backend backend, const StencilChoice& choice)
    : Solver(scene, checkChoice(choice, backend))
{
}

Solver::Solver(const Scene& scene, const CheckedChoice& choice)
    : mBackend(choice.backend()), mKind(scene.kind), mFire(isFire(scene.params)), mParams(scene.params),
      mSceneName(scene.name), mAdapt(scene.adapt), mRegion(solver::copyOf(scene.region)), mWind(scene.wind),
      mScalars(scene.scalars)
{
    if (!scene.grid.grid<nanovdb::ValueOnIndex>()) throw std::invalid_argument("scene grid is not an OnIndex grid");
    if (mBackend == Backend::Cuda) {
        if (const std::string why = cudaUnavailableReason(); !why.empty())
            throw std::runtime_error("the CUDA backend cannot run here: " + why + "; use --backend cpu");
    }
    mTapTable = scene.tapTable == TapTableMode::On;
    if (scene.tapTable == TapTableMode::Auto) {
        const double voxels = double(scene.grid.grid<nanovdb::ValueOnIndex>()->activeVoxelCount());
        mTapTable = planTapTable(scene, voxels, 1, memoryOffer(mBackend)).on;
    }
    if (mBackend == Backend::Cuda)
        mEngine = solver::makeCudaEngine(scene, choice, mTapTable);
    else
        mEngine = solver::makeCpuEngine(scene, choice, mTapTable);
}

Solver::~Solver() = default;

const FrameTimings& Solver::step()
{
    mLast = mEngine->step(mParams);
    return mLast;
}

void Solver::setChoice(const CheckedChoice& c)
{
    if (c.backend() != mBackend)
        throw std::invalid_argument(std::string("a choice checked for the ") + backendName(c.backend()) +
                                    " backend, given to a solver on " + backendName(mBackend));
    mEngine->setChoice(c);
}

void Solver::setChoice(const StencilChoice& c) { setChoice(checkChoice(c, mBackend)); }

StencilChoice Solver::choice() const { return mEngine->choice(); }

MemoryReport Solver::memory() const { return mEngine->memory(); }
uint64_t Solver::activeVoxels() const { return mEngine->activeVoxels(); }
uint64_t Solver::topologyVersion() const { return mEngine->topologyVersion(); }
HostGridHandle Solver::grid() const { return mEngine->hostGrid(); }
uint64_t Solver::blockCount() const { return mEngine->blockCount(choice().log2BlockWidth); }
double Solver::explicitStableDt() const { return vbm::explicitStableDt(mParams); }

std::vector<std::string> Solver::fieldNames() const
{
    std::vector<std::string> names;
    for (solver::Channel c : solver::userChannels(mKind, mFire))
        names.emplace_back(solver::channelName(c));
    return names;
}

std::vector<float> Solver::field(const std::string& name) const
{
    return mEngine->download(channelOf(name, mKind, mFire));
}
const float* Solver::fieldData(const std::string& name) const
{
    return mEngine->fieldData(channelOf(name, mKind, mFire));
}
void* Solver::cudaStream() const { return mEngine->cudaStream(); }

uint64_t Solver::stepsDone() const { return mEngine->stepsDone(); }

Scene Solver::state() const
{
    Scene s;
    s.name = mSceneName;
    s.kind = mKind;
    s.grid = mEngine->hostGrid();
    s.params = mParams;
    s.adapt = mAdapt;
    s.region = solver::copyOf(mRegion);
    s.wind = mWind;
    s.scalars = mScalars; // the values are halves already: packing them again keeps them
    s.tapTable = mTapTable ? TapTableMode::On : TapTableMode::Off;
    s.startStep = stepsDone();
    using solver::Channel;
    s.temperature = mEngine->download(Channel::Temperature);
    if (mKind == SimulationKind::Heat) {
        s.fixed = mEngine->download(Channel::Fixed);
    } else {
        s.density = mEngine->download(Channel::Density);
        s.emitter = mEngine->download(Channel::Emitter);
        s.u = mEngine->download(Channel::U), s.v = mEngine->download(Channel::V), s.w = mEngine->download(Channel::W);
        s.pressure = mEngine->download(Channel::Pressure);
        if (mFire) s.fuel = mEngine->download(Channel::Fuel);
    }
    return s;
}

Scene Solver::snapshot() const
{
    Scene s = state();
    s.name += " (snapshot)";
    s.adapt.rebuilds = false;
    s.startStep = 0;
    return s;
}

uint64_t Solver::fieldsHash() const
{
    uint64_t h = 1469598103934665603ull;
    for (const auto& name : fieldNames()) {
        const auto f = field(name);
        const auto* bytes = reinterpret_cast<const unsigned char*>(f.data());
        for (size_t i = 0; i < f.size() * sizeof(float); ++i)
            h = (h ^ bytes[i]) * 1099511628211ull;
    }
    return h;
}

} // namespace vbm
