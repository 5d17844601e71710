// SPDX-License-Identifier: Apache-2.0
// Memory estimates, the machine's offer, the refusal and the tap table's plan (see MemoryPlan.h).
#include "MemoryPlan.h"

#include "DeviceQueries.h"

#if VBM_HAVE_CUDA
#include "CudaCheck.h"

#include <cuda_runtime.h>
#endif

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>

namespace vbm {

namespace {

constexpr double TapTableBytes = 24;      ///< 6 uint32 neighbours per voxel
constexpr double CoarsePerFine = 0.2;     ///< coarse voxels per fine one, from above (a ball: 0.147)
constexpr double CoarseBytes = 36;        ///< per coarse voxel: 6 neighbours, a child base, 8 child offsets
constexpr double GridAndVbmBytes = 2;     ///< per voxel, from above for dense shapes (the 4.2M plume: 1.1)
constexpr double AutoTableShare = 0.95;   ///< auto turns the table on within this share of the offer
constexpr double AutoTableShareAdaptive = 0.9; ///< the same for a set that rebuilds (it may grow)
constexpr double FixedSolverBytes = 16.0 * (1 << 20);

bool isSmoke(const Scene& s) { return s.kind == SimulationKind::Smoke; }

/// Bytes per voxel of the channels, the emitter bits, the diagonal and the workspace slots
/// (Fields.h, Domain.h).
double fieldBytes(const Scene& s)
{
    const bool fire = isSmoke(s) && isFire(s.params);
    double channels = 2; // heat: temperature and fixed
    if (isSmoke(s)) channels = (s.scalars == ScalarStorage::Half ? 5 : 6) + (fire ? 1 : 0);
    const double slots = isSmoke(s) && !fire ? 5 : 6;
    const double emitter = isSmoke(s) ? 0.125 : 0;
    const double diag = 1 + (s.adapt.enabled() ? 4 : 0); // adaptive domains keep their air cells
    return 4 * (channels + slots) + emitter + diag;
}

double coarseBytes(const Scene& s)
{
    const bool multigrid = isSmoke(s) && s.params.pressurePreconditioner == Preconditioner::Multigrid;
    return multigrid ? CoarsePerFine * (CoarseBytes + (s.adapt.enabled() ? 4 : 0)) : 0;
}

/// "18.7 GB", "310 MB" or "12 kB" (powers of 1000, as the GPU's 141 GB is quoted).
std::string gigabytes(double bytes)
{
    char text[32];
    if (bytes >= 1e9)
        std::snprintf(text, sizeof text, "%.1f GB", bytes / 1e9);
    else if (bytes >= 1e6)
        std::snprintf(text, sizeof text, "%.0f MB", bytes / 1e6);
    else
        std::snprintf(text, sizeof text, "%.0f kB", bytes / 1e3);
    return text;
}

std::string voxelText(double voxels)
{
    char text[32];
    if (voxels >= 1e9)
        std::snprintf(text, sizeof text, "%.2fG", voxels / 1e9);
    else if (voxels >= 1e6)
        std::snprintf(text, sizeof text, "%.1fM", voxels / 1e6);
    else
        std::snprintf(text, sizeof text, "%.0f", voxels);
    return text;
}

/// MemAvailable of /proc/meminfo in bytes (0 where it cannot be read).
uint64_t availableHostBytes()
{
    std::ifstream in("/proc/meminfo");
    std::string key;
    uint64_t kib = 0;
    while (in >> key) {
        if (key == "MemAvailable:" && (in >> kib)) return kib * 1024;
        in.ignore(1 << 10, '\n');
    }
    return 0;
}

uint64_t freeDeviceBytes()
{
#if VBM_HAVE_CUDA
    size_t freeBytes = 0, total = 0;
    cuda::checkCuda(cudaMemGetInfo(&freeBytes, &total), "cudaMemGetInfo");
    return freeBytes;
#else
    return 0;
#endif
}

/// The environment's byte count in `name`, if set; a malformed one stops with a line naming it.
bool bytesFromEnvironment(const char* name, uint64_t& bytes)
{
    const char* text = std::getenv(name);
    if (!text || !*text) return false;
    if (!parseByteCount(text, bytes))
        throw std::invalid_argument(std::string(name) + "='" + text +
                                    "' is not a byte count (a number, optionally with K, M, G or T)");
    return true;
}

} // namespace

double estimatedSolverBytesPerVoxel(const Scene& scene, bool tapTable)
{
    return GridAndVbmBytes + fieldBytes(scene) + coarseBytes(scene) + (tapTable ? TapTableBytes : 0);
}

double estimatedSolverBytes(const Scene& scene, double voxels, bool tapTable)
{
    return voxels * estimatedSolverBytesPerVoxel(scene, tapTable) + FixedSolverBytes;
}

double estimatedSetupHostBytesPerVoxel(const Scene& scene)
{
    // 12 B of coordinates (a shell, a level set or a mesh lists its voxels; a ball or a box is
    // built by leaf without them, so for those this is an upper bound), about 5 B in the
    // builder's leaves, the grid's 1-2 B, then the initial fields the scene keeps (temperature,
    // density and the emitter for smoke; temperature and fixed for heat) and one packed copy
    // while they go up.
    const double fields = isSmoke(scene) ? 3 * 4 : 2 * 4;
    return 12 + 5 + 2 + fields + 4;
}

bool parseByteCount(const std::string& text, uint64_t& bytes)
{
    char* end = nullptr;
    const double value = std::strtod(text.c_str(), &end);
    if (end == text.c_str() || !(value >= 0) || !std::isfinite(value)) return false;
    const std::string suffix(end);
    double scale = 1;
    if (suffix == "K" || suffix == "k")
        scale = 1024.0;
    else if (suffix == "M" || suffix == "m")
        scale = 1024.0 * 1024;
    else if (suffix == "G" || suffix == "g")
        scale = 1024.0 * 1024 * 1024;
    else if (suffix == "T" || suffix == "t")
        scale = 1024.0 * 1024 * 1024 * 1024;
    else if (!suffix.empty())
        return false;
    if (value * scale >= 1.8e19) return false;
    bytes = uint64_t(value * scale);
    return true;
}

MemoryOffer memoryOffer(Backend backend)
{
    MemoryOffer offer;
    if (!bytesFromEnvironment("VBM_HOST_MEMORY", offer.host)) offer.host = availableHostBytes();
    if (backend == Backend::Cuda) {
        offer.deviceName = "the GPU";
        if (!bytesFromEnvironment("VBM_DEVICE_MEMORY", offer.device)) offer.device = freeDeviceBytes();
    } else {
        offer.deviceName = "the host";
        if (!bytesFromEnvironment("VBM_DEVICE_MEMORY", offer.device)) offer.device = offer.host;
    }
    return offer;
}

std::string memoryRefusal(const Scene& scene, double voxels, int configurations, const MemoryOffer& offer)
{
    const bool table = scene.tapTable == TapTableMode::On;
    const double perVoxel = estimatedSolverBytesPerVoxel(scene, table);
    const double solverBytes = estimatedSolverBytes(scene, voxels, table) * configurations;
    const double hostBytes = voxels * estimatedSetupHostBytesPerVoxel(scene);
    const std::string what = "the domain would hold " + voxelText(voxels) + " voxels";
    std::string tryThis = "try a smaller scene";
    if (isSmoke(scene) && scene.scalars == ScalarStorage::Float)
        tryThis = "try --scalars half (4 B per voxel less) or a smaller scene";
    if (scene.tapTable == TapTableMode::On) tryThis = "try --tap-table off (24 B per voxel less) or a smaller scene";
    if (configurations > 1) tryThis += ", or one resolver instead of " + std::to_string(configurations);
    char per[48];
    std::snprintf(per, sizeof per, " (%.1f B per voxel", perVoxel);
    if (offer.device && solverBytes > double(offer.device))
        return what + ": the solver needs about " + gigabytes(solverBytes) + per +
               (configurations > 1 ? ", " + std::to_string(configurations) + " configurations)" : std::string(")")) +
               ", " + offer.deviceName + " has " + gigabytes(double(offer.device)) + " free: " + tryThis;
    if (offer.host && hostBytes > double(offer.host)) {
        char hostPer[48];
        std::snprintf(hostPer, sizeof hostPer, " (%.0f B per voxel)", estimatedSetupHostBytesPerVoxel(scene));
        return what + ": building it needs about " + gigabytes(hostBytes) + " of host memory" + hostPer + ", " +
               gigabytes(double(offer.host)) + " are available: try a smaller scene";
    }
    return "";
}

TapTablePlan planTapTable(const Scene& scene, double voxels, int configurations, const MemoryOffer& offer)
{
    if (scene.tapTable == TapTableMode::On) return {true, "on (tap_table on)"};
    if (scene.tapTable == TapTableMode::Off) return {false, "off (tap_table off)"};
    const double perVoxel = estimatedSolverBytesPerVoxel(scene, true);
    const double need = estimatedSolverBytes(scene, voxels, true) * configurations;
    char why[160];
    // the estimate is from above (the 1B plume: 78.3 B per voxel, 75.7 measured), so a fixed
    // set keeps 5% of the offer for what it does not count (a renderer, CUDA's own); a set
    // that rebuilds keeps 10%, room to grow
    const double share = scene.adapt.enabled() ? AutoTableShareAdaptive : AutoTableShare;
    if (offer.device && need <= share * double(offer.device)) {
        std::snprintf(why, sizeof why, "on (fits: %.1f B per voxel, %s of %s free)", perVoxel, gigabytes(need).c_str(),
                      gigabytes(double(offer.device)).c_str());
        return {true, why};
    }
    std::snprintf(why, sizeof why, "off (would not fit: %.1f B per voxel, %s of %s free)", perVoxel,
                  gigabytes(need).c_str(), gigabytes(double(offer.device)).c_str());
    return {false, why};
}

} // namespace vbm
