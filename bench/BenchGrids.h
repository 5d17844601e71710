// The grids vbm-bench runs on: the built-in sphere shells and the grids of .nvdb files on the
// host, and one grid's device copy with its VBM metadata at every block width a run needs.
#pragma once

#include "BenchKernels.h"
#include "DeviceArray.h"
#include "DeviceRuns.h"
#include "GridGenerators.h"
#include "vbm/BuildVoxelBlockManager.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace bench {

/// A grid to bench on, with the names its tables print.
struct BenchGrid {
    std::string name, origin;
    vbm::HostGridHandle handle;
};

/// "small", "thin" and "thick" are built in; anything else names a file.
bool isBuiltInGrid(const std::string& spec);

/// The grid(s) of one --grid value: a built-in shell, or every usable grid of a .nvdb file (the
/// ones it skips are noted on stderr). Throws vbm::InputError for an unreadable file.
std::vector<BenchGrid> loadGrid(const std::string& spec);

/// Reads every file among `specs` once, before anything needs the GPU, so an unreadable file
/// is reported as such on any machine. Keyed by the spec.
std::map<std::string, std::vector<BenchGrid>> loadFileGrids(const std::vector<std::string>& specs);

/// The grids of a run in the order given: built-in ones are built now (they take seconds, so
/// stderr says so), file ones are moved out of `fileGrids`.
std::vector<BenchGrid> collectGrids(const std::vector<std::string>& specs,
                                    std::map<std::string, std::vector<BenchGrid>>& fileGrids);

/// The dense floor's box for a sparse grid: nx * nx * nz voxels, about as many as it has.
struct DenseBox {
    int nx = 0, nz = 0;
    uint64_t voxels = 0;
};
DenseBox denseBoxFor(uint64_t activeVoxels);

/// One grid on the device with its VBM metadata at each width in `log2Widths` (built on the
/// host, copied over). Not copyable: the kernels' problems point into it.
class GridOnDevice {
public:
    GridOnDevice(const BenchGrid& grid, const std::vector<int>& log2Widths);
    GridOnDevice(const GridOnDevice&) = delete;
    GridOnDevice& operator=(const GridOnDevice&) = delete;

    const BenchGrid& source;
    const vbm::IndexGrid* host; ///< the host grid (the checks' oracle reads it)
    uint64_t voxels;            ///< active voxels
    uint32_t leafCount;
    vbm::cuda::DeviceGrid device;
    std::map<int, vbm::VbmMetadata> meta; ///< by log2 width
    std::map<int, vbm::cuda::DeviceArray<uint32_t>> firstLeafID;
    std::map<int, vbm::cuda::DeviceArray<uint64_t>> jumpMap;
    uint64_t lastOffset = 0; ///< the last value index (the same at every width)

    /// The sparse problem at width 2^log2Width: grid and VBM filled in, no sidecar or output.
    SparseProblem problem(int log2Width) const;
};

} // namespace bench
