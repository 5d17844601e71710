// The camera the renderer looks through: an orbit around a target point, in the grid's index
// space. The window turns it with the mouse (app/GuiCamera); the headless run keeps the framing.
#pragma once

namespace vbm::render {

/// An orbit camera around a target (index-space coordinates; angles in radians).
struct OrbitCamera {
    float target[3] = {0, 0, 0};
    float distance = 100;
    float azimuth = 0.7f, elevation = 0.35f;
    float fovY = 0.8f;
    /// Frames a box [lo, hi) from the default angles.
    static OrbitCamera framing(const float lo[3], const float hi[3]);
};

} // namespace vbm::render
