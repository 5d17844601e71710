// SPDX-License-Identifier: Apache-2.0
// vbm-fluid: the simulator's entry point. Without --headless it opens the window; where no
// display can be opened it says so in one line and runs headless. Failures end through
// cli::guardedMain: one line, exit 2 for bad usage or input, 1 for a failed run.
#include "CommandLine.h"
#include "FluidOptions.h"
#include "GuiApp.h"
#include "HeadlessRun.h"

#include <cstdio>

int main(int argc, char** argv)
{
    using namespace vbm::app;
    return vbm::cli::guardedMain("vbm-fluid", [&] {
        const Options o = parseOptions(argc, argv);
        if (o.help) {
            std::fputs(Usage, stdout);
            return 0;
        }
        if (!o.headless) {
            try {
                return runGui(o);
            } catch (const NoDisplay& e) {
                std::fprintf(stderr, "vbm-fluid: no window: %s; running headless\n", e.what());
            }
        }
        return runHeadless(o);
    });
}
