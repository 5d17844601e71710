// SPDX-License-Identifier: Apache-2.0
// The domain statements of fixed-topology scenes (assets/scenes/README.md): `domain shell R T`,
// `domain box ...`, `domain sphere ...` and `domain nvdb FILE interior|band`, less the
// obstacles. (`domain open` is OpenDomain.h's.)
#pragma once

#include "scene/SceneMeshes.h"

#include <functional>
#include <string>
#include <vector>

namespace vbm::scenetext {

/// SceneBuildHooks as the domain sees them: the check takes the voxel count alone.
struct DomainHooks {
    std::function<void(double voxels)> beforeBuild;
    std::function<void(const char* what, double fraction)> progress;
};

/// The domain's grid: its shape, less the removed balls (obstacles[k] from removes[k]); every
/// voxel within the safe index range and fewer than 2^32 - 1024 of them. `baseDir` resolves a
/// relative .nvdb path. Throws SceneError naming the line. `hooks.beforeBuild` hears the voxel
/// count (an estimate from above where removed balls or a level set's file decide it) before
/// the voxels are listed, or for a level set once they are, before its grid is built.
HostGridHandle buildDomain(const std::string& source, const Line& domain, const std::vector<const Line*>& removes,
                           const std::string& baseDir, const ActiveRegion& obstacles, const MeshVoxelLists& meshes,
                           const DomainHooks& hooks = {});

} // namespace vbm::scenetext
