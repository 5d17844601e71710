// SPDX-License-Identifier: Apache-2.0
// The camera the renderer looks through: an orbit around a target point, in the grid's index
// space. The window turns it with the mouse (app/GuiCamera); the headless run keeps the framing.
#pragma once

#include <glm/glm.hpp>

namespace vbm::render {

/// The unit vector at (azimuth, elevation), radians: (cos e cos a, sin e, cos e sin a). The
/// camera's offset from its target and the sun's direction both use it.
glm::vec3 directionOf(float azimuth, float elevation);

/// Where the camera is and its unit axes: right is horizontal (forward x +y), up = right x forward.
struct CameraBasis {
    glm::vec3 eye, forward, right, up;
};

/// An orbit camera around a target (index-space coordinates; angles in radians).
struct OrbitCamera {
    float target[3] = {0, 0, 0};
    float distance = 100;
    float azimuth = 0.7f, elevation = 0.35f;
    float fovY = 0.8f;
    /// Frames a box [lo, hi) from the default angles.
    static OrbitCamera framing(const float lo[3], const float hi[3]);
    /// The eye at target + distance * directionOf(azimuth, elevation), looking at the target.
    CameraBasis basis() const;
};

} // namespace vbm::render
