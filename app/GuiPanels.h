// SPDX-License-Identifier: Apache-2.0
// The window's panels (Dear ImGui): simulation, resolvers, parameters, render, frame times and
// output. They edit GuiState, the look and the solver's parameters; the loop applies the rest.
#pragma once

#include "GuiState.h"
#include "GuiTimings.h"
#include "VolumeRenderer.h"

#include <cstdint>
#include <string>
#include <vector>

namespace vbm::app {

/// What the panels show but do not change.
struct PanelInfo {
    std::string device;     ///< where the solver runs
    std::string renderPath; ///< how the field reaches the renderer
    /// Host<->device bytes the render of the last step copied: the field (0 on the shared path),
    /// and after a rebuild of the topology the new grid too.
    uint64_t hostBytesLastField = 0;
    std::string cudaWhyNot; ///< "" when the CUDA backend can run
    std::vector<std::string> scenes;
    SimulationKind kind = SimulationKind::Heat;
    uint64_t voxels = 0, blocks = 0;
    ScalarStorage scalars = ScalarStorage::Float; ///< the running smoke scene's storage
    bool tapTable = false;                        ///< the running scene stores its cross taps
    double bytesPerVoxel = 0;                     ///< the solver's memory per active voxel
    int steps = 0;
    double explicitStableDt = 0; ///< heat, explicit scheme: the largest stable time step
    float boxMin[3] = {0, 0, 0}, boxMax[3] = {0, 0, 0};
    std::string lastOutput; ///< the last screenshot or export, for the user to find it
};

/// One sentence per resolver: how a tap is found, what comes out, shared memory, divergence.
const char* resolverTooltip(Resolver r);

/// Draws the panel column at the window's left edge, `width` x `height` pixels.
void drawPanels(GuiState& s, render::RenderSettings& look, SimulationParams& params, const PanelInfo& info,
                const FrameHistory& history, float width, float height);

} // namespace vbm::app
