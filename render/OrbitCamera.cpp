// The orbit camera (see OrbitCamera.h).
#include "OrbitCamera.h"

#include <cmath>

namespace vbm::render {

OrbitCamera OrbitCamera::framing(const float lo[3], const float hi[3])
{
    OrbitCamera c;
    float diag = 0;
    for (int a = 0; a < 3; ++a)
        c.target[a] = 0.5f * (lo[a] + hi[a]), diag += (hi[a] - lo[a]) * (hi[a] - lo[a]);
    // the box's bounding sphere fills the view's height, with a margin
    c.distance = 0.5f * std::sqrt(diag) / std::tan(0.5f * c.fovY) * 0.9f;
    return c;
}

} // namespace vbm::render
