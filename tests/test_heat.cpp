// SPDX-License-Identifier: Apache-2.0
// Heat diffusion on the CPU backend: second-order convergence to the analytic 3D Gaussian heat
// kernel, first order in time for the implicit scheme, conservation with insulated boundaries,
// and the explicit stability bound.
#include "Solver.h"
#include "vbm/VoxelBlockManager.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <numeric>

using namespace vbm;

namespace {

constexpr double Sigma0 = 0.07; // initial width of the Gaussian, domain [0,1]^3
constexpr double Alpha = 1.0;

// The unit cube at n^3 voxels with a unit Gaussian at its centre.
Scene gaussianScene(int n, HeatScheme scheme, double dt)
{
    const double h = 1.0 / n, c = 0.5 * (n - 1);
    std::string text = "kind heat\ndomain box 0 0 0 " + std::to_string(n) + " " + std::to_string(n) + " " +
                       std::to_string(n) + "\ntemperature gaussian " + std::to_string(c) + " " + std::to_string(c) +
                       " " + std::to_string(c) + " " + std::to_string(Sigma0 / h) + " 1\n";
    text += std::string("scheme ") + (scheme == HeatScheme::Explicit ? "explicit" : "implicit") + "\n";
    char num[64];
    std::snprintf(num, sizeof num, "%.17g", h);
    text += std::string("voxel_size ") + num + "\nalpha 1\n";
    std::snprintf(num, sizeof num, "%.17g", dt);
    text += std::string("dt ") + num + "\ncg_tolerance 1e-7\ncg_max_iterations 2000\n";
    return parseScene(text, "gaussian test");
}

// Max error against exp(-r^2 / (2 s^2)) * (Sigma0^2 / s^2)^(3/2), s^2 = Sigma0^2 + 2 alpha t.
double gaussianError(const Solver& s, int n, double t)
{
    const Scene ref = gaussianScene(n, HeatScheme::Explicit, 1); // for the grid layout only
    const auto T = s.field("temperature");
    const IndexGrid* g = ref.grid.grid<nanovdb::ValueOnIndex>();
    const double h = 1.0 / n, s2 = Sigma0 * Sigma0 + 2 * Alpha * t, amp = std::pow(Sigma0 * Sigma0 / s2, 1.5);
    double err = 0;
    for (uint32_t i = 0; i < g->tree().nodeCount(0); ++i)
        for (auto on = leaves(g)[i].valueMask().beginOn(); on; ++on) {
            const auto c = leaves(g)[i].offsetToGlobalCoord(*on);
            double r2 = 0;
            for (int a = 0; a < 3; ++a)
                r2 += std::pow((c[a] + 0.5) * h - 0.5, 2);
            err = std::max(err, std::abs(T[leaves(g)[i].getValue(*on)] - amp * std::exp(-r2 / (2 * s2))));
        }
    return err;
}

double run(Solver& s, int steps)
{
    for (int k = 0; k < steps; ++k)
        s.step();
    return 0;
}

double total(const std::vector<float>& v) { return std::accumulate(v.begin(), v.end(), 0.0); }

} // namespace

TEST(Heat, ExplicitConvergesAtSecondOrderToTheGaussianKernel)
{
    const double tEnd = 0.001;
    std::vector<double> errors;
    for (int n : {24, 48, 96}) {
        const double h = 1.0 / n;
        const int steps = int(std::ceil(tEnd / (0.9 * h * h / (6 * Alpha))));
        Solver s(gaussianScene(n, HeatScheme::Explicit, tEnd / steps), Backend::Cpu);
        run(s, steps);
        errors.push_back(gaussianError(s, n, tEnd));
    }
    RecordProperty("errors",
                   std::to_string(errors[0]) + " " + std::to_string(errors[1]) + " " + std::to_string(errors[2]));
    EXPECT_GT(errors[0] / errors[1], 3.2) << errors[0] << " " << errors[1];
    EXPECT_GT(errors[1] / errors[2], 3.2) << errors[1] << " " << errors[2];
    EXPECT_LT(errors[2], 2e-3);
}

TEST(Heat, ImplicitIsFirstOrderInTime)
{
    const int n = 32;
    const double tEnd = 0.004; // 40x the explicit bound per step at the coarsest dt
    Solver ref(gaussianScene(n, HeatScheme::Implicit, tEnd / 256), Backend::Cpu);
    run(ref, 256);
    const auto tRef = ref.field("temperature");
    std::vector<double> errors;
    for (int steps : {4, 8, 16}) {
        Solver s(gaussianScene(n, HeatScheme::Implicit, tEnd / steps), Backend::Cpu);
        run(s, steps);
        const auto t = s.field("temperature");
        double e = 0;
        for (size_t i = 1; i < t.size(); ++i)
            e = std::max(e, double(std::abs(t[i] - tRef[i])));
        errors.push_back(e);
    }
    for (int k = 0; k < 2; ++k) {
        const double ratio = errors[k] / errors[k + 1];
        EXPECT_GT(ratio, 1.7) << errors[k] << " " << errors[k + 1];
        EXPECT_LT(ratio, 2.3) << errors[k] << " " << errors[k + 1];
    }
}

TEST(Heat, InsulatedBoundariesConserveTotalHeat)
{
    for (HeatScheme scheme : {HeatScheme::Explicit, HeatScheme::Implicit}) {
        // the sphere shell: a thin, curved, sparse domain
        Scene scene =
            parseScene("kind heat\ndomain shell 40 4\ntemperature gaussian 40 0 0 5 100\nalpha 1\ndt " +
                           std::string(scheme == HeatScheme::Explicit ? "0.16\nscheme explicit\n"
                                                                      : "3\nscheme implicit\ncg_tolerance 1e-7\n"),
                       "conservation");
        Solver s(scene, Backend::Cpu);
        const double before = total(s.field("temperature"));
        run(s, 20);
        const double after = total(s.field("temperature"));
        EXPECT_NEAR(after / before, 1.0, 1e-5) << (scheme == HeatScheme::Explicit ? "explicit" : "implicit");
        // and the heat did move
        const auto t = s.field("temperature");
        EXPECT_LT(*std::max_element(t.begin(), t.end()), 90.f);
    }
}

TEST(Heat, ExplicitStepAboveTheStabilityBoundIsRefused)
{
    Scene scene = parseScene("kind heat\ndomain box 0 0 0 8 8 8\nalpha 1\ndt 0.2\n", "unstable");
    Solver s(scene, Backend::Cpu);
    EXPECT_NEAR(s.explicitStableDt(), 1.0 / 6.0, 1e-12);
    EXPECT_THROW(s.step(), std::invalid_argument);
}

TEST(Heat, FixedTemperatureSourcesHoldTheirValue)
{
    Solver s(loadScene("heat-block"), Backend::Cpu);
    const auto t0 = s.field("temperature");
    run(s, 3);
    const auto t = s.field("temperature");
    int hot = 0, cold = 0, warmed = 0;
    for (size_t i = 1; i < t.size(); ++i) {
        if (t0[i] == 100.f) hot += t[i] == 100.f;
        if (t0[i] == -100.f) cold += t[i] == -100.f;
        if (t0[i] == 0.f && t[i] > 1.f) ++warmed;
    }
    EXPECT_GT(hot, 500);
    EXPECT_GT(cold, 500);
    EXPECT_GT(warmed, 100);
}

TEST(Heat, AFieldThatTurnsNonFiniteStopsTheRunNamingTheStepAndTheField)
{
    for (HeatScheme scheme : {HeatScheme::Explicit, HeatScheme::Implicit}) {
        Scene scene = gaussianScene(8, scheme, 1e-4);
        scene.temperature[20] = std::numeric_limits<float>::quiet_NaN(); // as if a step had made it
        Solver s(scene, Backend::Cpu);
        try {
            for (int k = 0; k < 3; ++k)
                s.step();
            ADD_FAILURE() << "no error";
        } catch (const NonFiniteError& e) {
            EXPECT_EQ(std::string(e.what()).rfind("step 1: the field 'temperature' is not finite", 0), 0u) << e.what();
        }
    }
}
