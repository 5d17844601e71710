// SPDX-License-Identifier: Apache-2.0
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

glm::vec3 directionOf(float azimuth, float elevation)
{
    return {std::cos(elevation) * std::cos(azimuth), std::sin(elevation), std::cos(elevation) * std::sin(azimuth)};
}

CameraBasis OrbitCamera::basis() const
{
    CameraBasis b;
    const glm::vec3 at(target[0], target[1], target[2]);
    b.eye = at + distance * directionOf(azimuth, elevation);
    b.forward = glm::normalize(at - b.eye);
    b.right = glm::normalize(glm::cross(b.forward, glm::vec3(0, 1, 0)));
    b.up = glm::cross(b.right, b.forward);
    return b;
}

} // namespace vbm::render
