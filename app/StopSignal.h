// SPDX-License-Identifier: Apache-2.0
// SIGTERM and SIGINT (Ctrl-C) as a request: a checkpointing run stops after the frame in
// progress and writes its last checkpoint, instead of ending at once with its state lost.
#pragma once

namespace vbm::app {

/// From now on SIGTERM and SIGINT only set the request (stopSignal()); a second one of either
/// ends the process at once, as without this.
void catchStopSignals();

/// The signal that asked the run to stop, or 0.
int stopSignal();

} // namespace vbm::app
