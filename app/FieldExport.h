// SPDX-License-Identifier: Apache-2.0
// Export of the simulation's fields as a .nvdb file, so a frame can be taken into other tools.
#pragma once

#include "GridGenerators.h"

#include <string>
#include <utility>
#include <vector>

namespace vbm::app {

/// Writes one NanoVDB float grid per field, named after it, with NanoVDB's io::writeGrid. Each
/// grid's active voxels are the domain's; a voxel's value is the field at its value index.
/// Throws std::runtime_error naming the file when it cannot be written; the file is written
/// under a temporary name beside it and renamed when complete, so no partial file is left.
void exportFields(const std::string& path, const HostGridHandle& domain,
                  const std::vector<std::pair<std::string, std::vector<float>>>& fields);

} // namespace vbm::app
