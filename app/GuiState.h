// SPDX-License-Identifier: Apache-2.0
// What the window's user controls besides the view: the panels, keys and script edit this; the
// main loop applies it to the session between frames. It holds choices and requests, never kernels.
#pragma once

#include "SolverTypes.h"

#include <optional>
#include <string>

namespace vbm::app {

struct GuiState {
    std::string scene; ///< built-in name or scene file; a change reloads
    Backend backend = Backend::Cpu;
    StencilChoice choice; ///< applied live with Session::setChoice, no reset
    /// Smoke's density and temperature storage as the user picked it (--scalars, the panel, the
    /// script); unset: each scene's own. A change reloads; heat scenes ignore it.
    std::optional<ScalarStorage> scalars;
    /// The voxel tap table as the user picked it (--tap-table, the panel, the script); unset:
    /// each scene's own (auto: on when it fits). A change reloads.
    std::optional<TapTableMode> tapTable;
    bool playing = true;

    // One-shot requests, cleared by the loop once handled.
    bool stepOnce = false;
    bool reset = false;     ///< reload the scene (its initial state and parameters)
    bool resetView = false; ///< frame the grid again
    bool quit = false;
    std::string screenshot;                ///< PNG of this frame's window
    std::string exportPath;                ///< .nvdb or .vdb of the current fields
    /// Recording a frame sequence (FrameExport): every this many stepped frames (0: not
    /// recording) into `recordPattern` (%04d: the frame).
    int recordEvery = 0;
    std::string recordPattern;
    int resizeWidth = 0, resizeHeight = 0; ///< script: set the window's size (0: no request)
};

} // namespace vbm::app
