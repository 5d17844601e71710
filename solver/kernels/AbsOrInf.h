// SPDX-License-Identifier: Apache-2.0
// |x| for the solver's max reductions, with NaN counted as infinity: a max that skips NaN (as
// fmax does) would let a field that turned NaN run on unnoticed; infinity stops the step
// (NonFiniteError). For finite values the result is |x| exactly, so no step changes.
#pragma once

#include <nanovdb/NanoVDB.h> // __hostdev__

#include <cmath>

namespace vbm::solver {

__hostdev__ inline double absOrInf(float x) { return x != x ? double(INFINITY) : fabs(double(x)); }

} // namespace vbm::solver
