// SPDX-License-Identifier: Apache-2.0
// The scene statements of adaptive scenes (assets/scenes/README.md, docs/adaptive.md): the
// balls (obstacles, emitters, initial smoke), `adapt every K margin M threshold T`, and
// `domain open [X0 Y0 Z0 X1 Y1 Z1]` and `floor Y` with its first topology.
#pragma once

#include "scene/SceneText.h"

namespace vbm::scenetext {

/// An open domain without an `adapt` line: rebuilt every 4 steps, 6 voxels of margin (the run
/// widens it when the flow is faster: docs/adaptive.md), threshold 0.01.
constexpr Adaptation DefaultOpenAdaptation{4, 6, 0.01};

/// The obstacles (`remove sphere`) and emitters (`emitter sphere`) as balls; `density sphere`
/// balls go to `smoke` (an open domain's first set holds them too).
void collectBalls(const std::string& source, const std::vector<const Line*>& removes,
                  const std::vector<const Line*>& fields, ActiveRegion& region, std::vector<Ball>& smoke);

/// `adapt every K margin M threshold T [speed S]`.
Adaptation readAdapt(const std::string& source, const Line& l);

/// An open domain's first topology: its emitters and initial smoke balls dilated by the margin,
/// within the box (which goes to scene.region): `domain open` alone is unbounded air (the box is
/// the whole safe index range), `domain open X0 Y0 Z0 X1 Y1 Z1` a box whose faces are walls.
/// `floor` (may be null): `floor Y`, a wall below y = Y (no voxel below it is active).
HostGridHandle openDomain(const std::string& source, const Line& d, const Line* floor, Scene& scene,
                          const std::vector<Ball>& smoke);

} // namespace vbm::scenetext
