// SPDX-License-Identifier: Apache-2.0
// One frame of the simulation as an OpenVDB .vdb file, the format Blender, Houdini and most
// renderers import: a float FogVolume grid per scalar field (named as Blender's volume shader
// expects: density, temperature, fuel; heat scenes' temperature as heat), the cell-centred
// velocity as the Vec3f grid vel, the voxel size in each grid's transform, the simulation time
// and frame in the file's metadata. Built leaf by leaf in parallel from the index grid, never a
// voxel at a time. Needs OpenVDB (Debian's libopenvdb-dev); vdbExportAvailable() says whether
// this build has it.
#pragma once

#include "GridGenerators.h"

#include <string>
#include <utility>
#include <vector>

namespace vbm::app {

/// What one .vdb frame holds: the domain's grid (its active voxels are every grid's), each
/// scalar field by its file name, the face velocities u, v, w (empty for heat), and when.
struct VdbFrame {
    HostGridHandle domain;
    std::vector<std::pair<std::string, std::vector<float>>> scalars;
    std::vector<float> u, v, w;
    double voxelSize = 1, time = 0;
    int frame = 0;
};

/// "" when this build writes .vdb files, else one line saying why not.
std::string vdbExportWhyNot();

/// How a .vdb file's leaves are stored: OpenVDB's default (Blosc, and only the active values),
/// or only the active values, uncompressed: larger and faster to write, which matters for
/// frames of hundreds of millions of voxels (docs/export.md).
enum class VdbCompression { Default, None };

/// How a .vdb file stores its leaves: the compression, and whether the float values are saved
/// as 16-bit halves (OpenVDB's saveFloatAsHalf: half the bytes; readers get floats back, each
/// the value rounded to the nearest half).
struct VdbStorage {
    VdbCompression compression = VdbCompression::Default;
    bool halfFloats = false;
};

/// Writes `frame` to `path`, through a temporary file beside it renamed at the end, so no
/// partial file is ever left under `path`. Throws std::runtime_error naming the file and the
/// failure (a full disk, a folder gone).
void writeVdbFrame(const std::string& path, const VdbFrame& frame, VdbStorage storage = {});

/// The file name of a solver field: heat's temperature is `heat`, the rest keep their names.
std::string vdbGridName(const std::string& field, bool heat);

} // namespace vbm::app
