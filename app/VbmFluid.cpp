// vbm-fluid: the simulator's entry point. Without --headless it opens the window; where no
// display can be opened it says so in one line and runs headless.
#include "GuiApp.h"
#include "HeadlessOptions.h"
#include "HeadlessRun.h"
#include "Scene.h"
#include "VulkanContext.h"

#include <cstdio>
#include <new>

int main(int argc, char** argv)
{
    using namespace vbm::app;
    Options o;
    try {
        o = parseOptions(argc, argv);
    } catch (const UsageError& e) {
        std::fprintf(stderr, "vbm-fluid: %s (see vbm-fluid --help)\n", e.what());
        return 2;
    }
    if (o.help) {
        std::fputs(Usage, stdout);
        return 0;
    }
    try {
        if (!o.headless) {
            try {
                return runGui(o);
            } catch (const NoDisplay& e) {
                std::fprintf(stderr, "vbm-fluid: no window: %s; running headless\n", e.what());
            }
        }
        return runHeadless(o);
    } catch (const UsageError& e) {
        std::fprintf(stderr, "vbm-fluid: %s\n", e.what());
        return 2;
    } catch (const vbm::SceneError& e) {
        std::fprintf(stderr, "vbm-fluid: %s\n", e.what());
        return 2;
    } catch (const std::invalid_argument& e) {
        std::fprintf(stderr, "vbm-fluid: %s\n", e.what());
        return 2;
    } catch (const vbm::render::VulkanError& e) {
        std::fprintf(stderr, "vbm-fluid: %s\n", e.what());
        return 1;
    } catch (const std::bad_alloc&) {
        std::fprintf(stderr, "vbm-fluid: out of host memory: pick a smaller scene\n");
        return 1;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "vbm-fluid: %s\n", e.what());
        return 1;
    }
}
