// SPDX-License-Identifier: Apache-2.0
// A scene whose smoke outruns the adaptive margin, for the edge watch's tests (test_open_air,
// test_checkpoint, test_fluid_cli): a heavy ball of smoke falling from rest. `weight` pulls it
// down, an acceleration the margin's bound (buoyancy's) leaves out, so with a rebuild every 4th
// step it reaches the set's edge within the first few steps and the next step rebuilds early.
#pragma once

namespace vbm {

inline constexpr const char* FallingSmokeScene = "kind smoke\ndomain open\nadapt every 4 margin 2 threshold 0.05\n"
                                                 "emitter sphere 0 200 0 1\nemit_density 0.01\nemit_temperature 0.01\n"
                                                 "density sphere 0 40 0 6 5\nbuoyancy 0\nweight 0.5\ndt 1\n";

} // namespace vbm
