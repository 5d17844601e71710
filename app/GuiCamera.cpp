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
    // the same basis as the renderer: the eye sits at target + distance * offset(azimuth, elevation)
    const float ce = std::cos(c.elevation), se = std::sin(c.elevation);
    const float ca = std::cos(c.azimuth), sa = std::sin(c.azimuth);
    const float forward[3] = {-ce * ca, -se, -ce * sa};
    float right[3] = {-forward[2], 0, forward[0]}; // forward x (0, 1, 0)
    const float rl = std::sqrt(right[0] * right[0] + right[2] * right[2]);
    right[0] /= rl, right[2] /= rl;
    const float up[3] = {right[1] * forward[2] - right[2] * forward[1], right[2] * forward[0] - right[0] * forward[2],
                         right[0] * forward[1] - right[1] * forward[0]};
    // one pixel moves the target by the size of a pixel at the target's depth
    const float perPixel = 2.f * c.distance * std::tan(0.5f * c.fovY) / std::max(viewHeight, 1.f);
    for (int a = 0; a < 3; ++a)
        c.target[a] += (-dx * right[a] + dy * up[a]) * perPixel;
}

void zoom(render::OrbitCamera& c, float wheel) { c.distance = std::max(1.f, c.distance * std::pow(0.9f, wheel)); }

} // namespace vbm::app
