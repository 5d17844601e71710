// SPDX-License-Identifier: Apache-2.0
// SIGTERM and SIGINT as a request to stop (see StopSignal.h).
#include "StopSignal.h"

#include <csignal>

namespace vbm::app {

namespace {

volatile std::sig_atomic_t gStopSignal = 0;

void onStopSignal(int signal)
{
    gStopSignal = signal;
    // the next one is not caught: a run that does not stop can still be ended
    std::signal(SIGTERM, SIG_DFL);
    std::signal(SIGINT, SIG_DFL);
}

} // namespace

void catchStopSignals()
{
    struct sigaction action {};
    action.sa_handler = onStopSignal;
    sigemptyset(&action.sa_mask);
    sigaction(SIGTERM, &action, nullptr);
    sigaction(SIGINT, &action, nullptr);
}

int stopSignal() { return gStopSignal; }

} // namespace vbm::app
