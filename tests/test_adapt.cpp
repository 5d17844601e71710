// Adaptive scenes on the CPU backend (docs/adaptive.md): the active-set rule, the rebuild's
// remap, open boundaries, and the open-domain scenes.
#include "ActiveSet.h"
#include "Solver.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace vbm;

TEST(Adapt, Diagnostic)
{
    const char* t = getenv("T");
    std::string text = "kind smoke\ndomain open -40 0 -40 40 96 40\nadapt every 4 margin 4 threshold " + std::string(t ? t : "0.1") +
                       "\nremove sphere 0 44 0 7\nemitter sphere 0 8 0 5\nbuoyancy 0.4\nweight 0.05\ndt 1\ncg_max_iterations 2000\n";
    Solver s(parseScene(text, "x"), Backend::Cpu);
    for (int k = 0; k < atoi(getenv("N") ? getenv("N") : "40"); ++k) {
        const FrameTimings& r = s.step();
        int it = -1;
        if (auto* p = r.find(Phase::PressureCg)) it = p->iterations;
        if (k % 4) continue;
        printf("step %d active %llu cg %d div %.3g ms %.1f\n", k, (unsigned long long)r.activeVoxels, it,
               r.divergenceAfter, r.stepMs());
    }
}
