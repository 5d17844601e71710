// Half storage against float over 300 steps of a small plume (33,120 voxels) on the CPU, beside
// float runs whose sources are nudged by 1 +- 2^-11: density sums and L1 differences every 25
// steps (docs/solver.md, "Half storage of density and temperature"). Not part of the build.
// Built and run from build/ (the command is in half-drift.sh).
#include "Solver.h"
#include <cmath>
#include <cstdio>
using namespace vbm;
int main(int argc, char** argv)
{
    const int steps = argc > 1 ? atoi(argv[1]) : 300;
    const char* text = "kind smoke\ndomain sphere 0 20 0 20\nremove sphere 0 24 0 4\nemitter sphere 0 6 0 4\n"
                       "buoyancy 0.5\nweight 0.05\ndt 1\ncg_tolerance 1e-5\ncg_max_iterations 300\n";
    Scene sc[4] = {parseScene(text, "a"), parseScene(text, "b"), parseScene(text, "c"), parseScene(text, "d")};
    sc[1].scalars = ScalarStorage::Half;
    sc[2].params.emitDensity *= 1 + 1.0 / 2048;
    sc[2].params.emitTemperature *= 1 + 1.0 / 2048;
    sc[3].params.emitDensity *= 1 - 1.0 / 2048;
    sc[3].params.emitTemperature *= 1 - 1.0 / 2048;
    Solver s0(sc[0], Backend::Cpu), s1(sc[1], Backend::Cpu), s2(sc[2], Backend::Cpu), s3(sc[3], Backend::Cpu);
    Solver* s[4] = {&s0, &s1, &s2, &s3};
    std::printf("voxels %llu\n", (unsigned long long)s0.activeVoxels());
    for (int k = 1; k <= steps; ++k) {
        for (auto* x : s)
            x->step();
        if (k % 25) continue;
        double sum[4], l1[4] = {};
        auto r = s0.field("density");
        for (int j = 0; j < 4; ++j) {
            auto f = s[j]->field("density");
            sum[j] = 0;
            double rs = 0;
            for (size_t i = 1; i < f.size(); ++i)
                sum[j] += f[i], l1[j] += std::fabs(f[i] - r[i]), rs += std::fabs(r[i]);
            l1[j] /= rs;
        }
        std::printf("step %d sum float %.2f | half %.5f (L1 %.2e) | +nudge %.5f (L1 %.2e) | -nudge %.5f (L1 %.2e)\n", k,
                    sum[0], sum[1] / sum[0], l1[1], sum[2] / sum[0], l1[2], sum[3] / sum[0], l1[3]);
        std::fflush(stdout);
    }
}
