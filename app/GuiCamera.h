// SPDX-License-Identifier: Apache-2.0
// Mouse control of the orbit camera: drag to orbit, drag with the right or middle button to
// pan, the wheel to zoom. Pixel deltas in, camera changes out; no window-system code here.
#pragma once

#include "OrbitCamera.h"

namespace vbm::app {

/// Turns the camera around its target by a mouse drag of (dx, dy) pixels.
void orbit(render::OrbitCamera& c, float dx, float dy);
/// Moves the target in the view plane so the scene follows the mouse; `viewHeight` in pixels.
void pan(render::OrbitCamera& c, float dx, float dy, float viewHeight);
/// Moves closer (wheel > 0) or away, by 10% per wheel step.
void zoom(render::OrbitCamera& c, float wheel);

} // namespace vbm::app
