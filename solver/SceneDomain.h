// The domain statements of fixed-topology scenes (assets/scenes/README.md): `domain shell R T`,
// `domain box ...`, `domain sphere ...` and `domain nvdb FILE interior|band`, less the
// obstacles. (`domain open` is OpenDomain.h's.)
#pragma once

#include "SceneText.h"

#include <string>
#include <vector>

namespace vbm::scenetext {

/// The domain's grid: its shape, less the removed balls (obstacles[k] from removes[k]); every
/// voxel within the safe index range and fewer than 2^31 of them. `baseDir` resolves a relative
/// .nvdb path. Throws SceneError naming the line.
HostGridHandle buildDomain(const std::string& source, const Line& domain, const std::vector<const Line*>& removes,
                           const std::string& baseDir, const std::vector<Ball>& obstacles);

} // namespace vbm::scenetext
