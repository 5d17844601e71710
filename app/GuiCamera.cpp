// SPDX-License-Identifier: Apache-2.0
// Mouse control of the orbit camera (see GuiCamera.h).
#include "GuiCamera.h"

#include <algorithm>
#include <cmath>

namespace vbm::app {

void orbit(render::OrbitCamera& c, float dx, float dy)
{
    c.azimuth += dx * 0.008f;
    // stop short of the poles, where the renderer's up vector would flip
    c.elevation = std::clamp(c.elevation + dy * 0.008f, -1.5f, 1.5f);
}

void pan(render::OrbitCamera& c, float dx, float dy, float viewHeight)
{
    const render::CameraBasis b = c.basis(); // the renderer's own
    // one pixel moves the target by the size of a pixel at the target's depth
    const float perPixel = 2.f * c.distance * std::tan(0.5f * c.fovY) / std::max(viewHeight, 1.f);
    for (int a = 0; a < 3; ++a)
        c.target[a] += (-dx * b.right[a] + dy * b.up[a]) * perPixel;
}

void zoom(render::OrbitCamera& c, float wheel) { c.distance = std::max(1.f, c.distance * std::pow(0.9f, wheel)); }

} // namespace vbm::app
