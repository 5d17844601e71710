// SPDX-License-Identifier: Apache-2.0
// The window's panels (see GuiPanels.h).
#include "GuiPanels.h"

#include "ResolverChoice.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace vbm::app {

const char* resolverTooltip(Resolver r)
{
    switch (r) {
    case Resolver::NanoVDB13:
        return "NanoVDB 13.0.0's own path, as a reference: a shared-memory sweep decodes the block, then a "
               "root-down tree walk per tap into a 27-entry array. CUDA only; needs the whole thread block.";
    case Resolver::computeBoxStencil:
        return "Baseline: 27 taps, each found by a root-down tree walk, materialized into an array. No shared "
               "memory; safe in divergent code.";
    case Resolver::forEachBoxStencil:
        return "27 taps by tree walk, streamed to the consumer one at a time instead of stored. No shared memory; "
               "safe in divergent code.";
    case Resolver::computeBoxStencilCached:
        return "27 taps looked up in a per-block table of neighbour leaves (1,728 B of shared memory), "
               "materialized. Cooperative: every thread of the block must call it.";
    case Resolver::forEachBoxStencilCached:
        return "27 taps from the cached neighbour-leaf table (1,728 B of shared memory), streamed. Cooperative: "
               "every thread of the block must call it.";
    case Resolver::computeCrossStencil:
        return "7-point cross (centre and 6 faces) by tree walk, materialized. No shared memory; safe in "
               "divergent code. Laplacian-type steps only.";
    case Resolver::computeCrossStencilCached:
        return "7-point cross from the cached neighbour-leaf table (448 B of shared memory). Cooperative. "
               "Laplacian-type steps only.";
    }
    return "";
}

namespace {

void help(const char* text)
{
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", text);
}

/// The colour of band i of the stacked plot: hues spread over the phases that run every step;
/// the rebuild band (every K steps) is a light grey of its own, so the others keep their colours
/// when it first appears.
ImU32 bandColour(const std::vector<Phase>& bands, size_t i)
{
    if (isRebuildPhase(bands[i])) return IM_COL32(225, 225, 225, 255);
    size_t hue = 0, hues = 0;
    for (size_t b = 0; b < bands.size(); ++b) {
        if (isRebuildPhase(bands[b])) continue;
        if (b < i) ++hue;
        ++hues;
    }
    return ImColor::HSV(float(hue) / float(std::max<size_t>(hues, 1)), 0.65f, 0.95f);
}

/// The resolver combo of one step kind: what the step kind refuses is not offered, what the
/// backend cannot run is greyed out with the rule's reason.
void resolverCombo(const char* label, Resolver& r, StepKind kind, Backend backend)
{
    if (!ImGui::BeginCombo(label, resolverName(r))) {
        help(resolverTooltip(r));
        return;
    }
    for (size_t i = 0; i < AllResolvers.size(); ++i) {
        const Resolver c = AllResolvers[i];
        if (!stepKindRefusal(c, kind).empty()) continue;
        const std::string why = resolverUnavailableReason(c, backend, kind);
        ImGui::BeginDisabled(!why.empty());
        char item[64];
        std::snprintf(item, sizeof item, "%zu  %s", i + 1, resolverName(c));
        if (ImGui::Selectable(item, c == r)) r = c;
        ImGui::EndDisabled();
        if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
            ImGui::SetTooltip("%s%s%s%s", resolverTooltip(c), why.empty() ? "" : "\n(", why.c_str(),
                              why.empty() ? "" : ")");
    }
    ImGui::EndCombo();
}

/// Smoke's density and temperature as floats or half pairs: a change restarts the scene.
void scalarStorageChoice(GuiState& s, const PanelInfo& info)
{
    int half = info.scalars == ScalarStorage::Half ? 1 : 0;
    ImGui::Text("density, temperature");
    ImGui::SameLine();
    ImGui::RadioButton("float", &half, 0);
    ImGui::SameLine();
    ImGui::RadioButton("half", &half, 1);
    help("Half: both stored as half-precision values, the pair in 32 bits (4 B per voxel less; results differ "
         "from float's by rounding, docs/solver.md). A change restarts the scene.");
    const ScalarStorage want = half ? ScalarStorage::Half : ScalarStorage::Float;
    if (want != info.scalars) s.scalars = want, s.reset = true;
}

/// The voxel tap table on or off: a change restarts the scene.
void tapTableChoice(GuiState& s, const PanelInfo& info)
{
    bool on = info.tapTable;
    ImGui::Checkbox("store the cross taps", &on);
    help("Each voxel's 6 neighbours stored once (24 B per voxel more) and read by every Laplacian-type pass "
         "instead of resolving them again: a faster pressure solve, bitwise the same results; the resolver "
         "then only fills the table, so untick it to compare the resolvers' pressure solves (docs/solver.md). "
         "On by default where it fits. A change restarts the scene.");
    if (on != info.tapTable) s.tapTable = on ? TapTableMode::On : TapTableMode::Off, s.reset = true;
}

void simulationPanel(GuiState& s, const PanelInfo& info)
{
    if (ImGui::BeginCombo("scene", s.scene.c_str())) {
        for (const std::string& name : info.scenes)
            if (ImGui::Selectable(name.c_str(), name == s.scene)) s.scene = name, s.reset = true;
        ImGui::EndCombo();
    }
    ImGui::SameLine();
    if (ImGui::Button("Reset")) s.reset = true;
    help("Back to the scene's initial state and parameters (R)");
    if (ImGui::Button(s.playing ? "Pause" : "Play", ImVec2(70, 0))) s.playing = !s.playing;
    help("Space");
    ImGui::SameLine();
    ImGui::BeginDisabled(s.playing);
    if (ImGui::Button("Step")) s.stepOnce = true;
    ImGui::EndDisabled();
    help("One step while paused (S)");
    ImGui::SameLine();
    ImGui::Text("step %d", info.steps);

    int backend = s.backend == Backend::Cuda ? 1 : 0;
    ImGui::Text("backend");
    ImGui::SameLine();
    ImGui::RadioButton("cpu", &backend, 0);
    ImGui::SameLine();
    ImGui::BeginDisabled(!info.cudaWhyNot.empty());
    ImGui::RadioButton("cuda", &backend, 1);
    ImGui::EndDisabled();
    if (!info.cudaWhyNot.empty() && ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
        ImGui::SetTooltip("%s", info.cudaWhyNot.c_str());
    const Backend want = backend ? Backend::Cuda : Backend::Cpu;
    if (want != s.backend) {
        s.backend = want;
        s.reset = true; // a new solver on the other backend, from the initial state
        fitChoiceToBackend(s.choice, want);
    }
    if (info.kind == SimulationKind::Smoke) scalarStorageChoice(s, info);
    tapTableChoice(s, info);
    ImGui::TextWrapped("%s", info.device.c_str());
    ImGui::Text("%llu active voxels, %llu blocks of %d", (unsigned long long)info.voxels,
                (unsigned long long)info.blocks, 1 << s.choice.log2BlockWidth);
    ImGui::Text("memory %.1f B per voxel", info.bytesPerVoxel);
}

void resolverPanel(GuiState& s, const PanelInfo& info)
{
    resolverCombo("Laplacian-type", s.choice.laplacian, StepKind::Laplacian, s.backend);
    help("Diffusion, divergence, the Poisson matrix-vector product, gradient, averaging: any of the seven. Keys "
         "1-7 pick one (a box one is used for advection too).");
    ImGui::BeginDisabled(info.kind != SimulationKind::Smoke);
    resolverCombo("advection", s.choice.advection, StepKind::Advection, s.backend);
    ImGui::EndDisabled();
    help("Semi-Lagrangian advection needs the 27-tap box (smoke only).");
    int width = s.choice.log2BlockWidth == 9 ? 1 : 0;
    ImGui::Text("block width");
    ImGui::SameLine();
    ImGui::RadioButton("128", &width, 0);
    ImGui::SameLine();
    ImGui::RadioButton("512", &width, 1);
    s.choice.log2BlockWidth = width ? 9 : 7; // the session keeps the block overlay's width in step
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyle().Colors[ImGuiCol_TextDisabled]);
    ImGui::TextWrapped("switching keeps the state: the fields stay bitwise the same");
    ImGui::PopStyleColor();
}

void parameterPanel(SimulationParams& p, const PanelInfo& info)
{
    auto slider = [](const char* label, double& v, double lo, double hi, const char* format, bool log = false) {
        ImGui::SliderScalar(label, ImGuiDataType_Double, &v, &lo, &hi, format,
                            log ? ImGuiSliderFlags_Logarithmic : ImGuiSliderFlags_None);
    };
    if (info.kind == SimulationKind::Heat) {
        const bool explicitScheme = p.scheme == HeatScheme::Explicit;
        slider("time step", p.dt, 0.01, explicitScheme ? info.explicitStableDt : 20.0, "%.3f");
        help(explicitScheme ? "Forward Euler: at most h^2 / (6 alpha)" : "Backward Euler: any step is stable");
        slider("diffusivity", p.alpha, 0.01, explicitScheme ? p.voxelSize * p.voxelSize / (6 * p.dt) : 10.0, "%.3f");
    } else {
        slider("time step", p.dt, 0.05, 4.0, "%.2f");
        slider("max CFL", p.maxCfl, 0.1, MaxCfl, "%.2f");
        help("Advection substeps keep the CFL number at most this. Above 1 each substep reaches up to 7 voxels "
             "through the leaves' neighbour rows: fewer substeps, different results");
        slider("buoyancy", p.buoyancy, 0.0, 2.0, "%.2f");
        slider("emitter density", p.emitDensity, 0.0, 4.0, "%.2f");
        slider("emitter temperature", p.emitTemperature, 0.0, 4.0, "%.2f");
        slider("vorticity", p.vorticity, 0.0, 1.0, "%.2f");
    }
    slider("CG tolerance", p.cgTolerance, 1e-8, 1e-2, "%.1e", true);
    ImGui::SliderInt("CG iteration cap", &p.cgMaxIterations, 1, 2000);
}

void renderPanel(GuiState& s, render::RenderSettings& look, const PanelInfo& info)
{
    int mode = int(look.mode);
    const char* modes[] = {"density (lit smoke)", "colormap (emission)", "VBM blocks", "fire (smoke and flames)"};
    ImGui::Combo("look", &mode, modes, 4);
    help("VBM blocks colours each voxel by its block, to see how blocks of 128 or 512 voxels cut the leaves; "
         "fire adds blackbody emission from the temperature (smoke scenes)");
    look.mode = render::RenderMode(mode);
    ImGui::TextWrapped("%s", info.renderPath.c_str());
    ImGui::Text("host copies for the last field: %.1f MB", double(info.hostBytesLastField) / 1e6);
    help("Bytes the last step's field (and, after a rebuild of the topology, its new grid) took through the host");
    ImGui::SliderFloat("density scale", &look.densityScale, 0.01f, 4.f, "%.2f", ImGuiSliderFlags_Logarithmic);
    if (look.mode == render::RenderMode::Emission || look.sliceAxis >= 0) {
        ImGui::Checkbox("colormap follows the field", &look.rangeFollowsField);
        if (!look.rangeFollowsField) {
            ImGui::DragFloat("colormap low", &look.rangeLo, 0.5f);
            ImGui::DragFloat("colormap high", &look.rangeHi, 0.5f);
        }
    }
    if (look.mode == render::RenderMode::Density || look.mode == render::RenderMode::Fire) {
        ImGui::SliderAngle("sun azimuth", &look.lightAzimuth, -180.f, 180.f);
        ImGui::SliderAngle("sun elevation", &look.lightElevation, -10.f, 90.f);
        ImGui::SliderFloat("exposure", &look.exposure, 0.1f, 8.f, "%.2f", ImGuiSliderFlags_Logarithmic);
    }
    if (look.mode == render::RenderMode::Fire)
        ImGui::SliderFloat("flame brightness", &look.fireEmission, 0.01f, 20.f, "%.2f", ImGuiSliderFlags_Logarithmic);
    ImGui::Checkbox("ground", &look.ground);
    int scale = look.pixelsPerRay == 4 ? 3 : look.pixelsPerRay == 2 ? 2 : look.pixelsPerRay == 1 ? 1 : 0;
    const char* scales[] = {"by device", "full", "half", "quarter"};
    ImGui::Combo("ray resolution", &scale, scales, 4);
    help("Half or quarter: one ray per 2x2 or 4x4 pixels, filtered up; by device: full on a GPU, half or "
         "quarter on a CPU Vulkan device such as lavapipe");
    look.pixelsPerRay = scale == 0 ? 0u : 1u << (scale - 1);
    int axis = look.sliceAxis + 1;
    ImGui::Text("slice");
    for (int a = 0; a < 4; ++a) {
        ImGui::SameLine();
        const char* names[] = {"off", "x", "y", "z"};
        if (ImGui::RadioButton(names[a], axis == a) && axis != a) {
            axis = a;
            if (a > 0) look.slicePosition = std::floor(0.5f * (info.boxMin[a - 1] + info.boxMax[a - 1]));
        }
    }
    look.sliceAxis = axis - 1;
    if (look.sliceAxis >= 0)
        ImGui::SliderFloat("slice at", &look.slicePosition, info.boxMin[look.sliceAxis],
                           info.boxMax[look.sliceAxis] - 1, "%.0f");
    if (ImGui::Button("Reset view")) s.resetView = true;
    help("Drag: orbit; right or middle drag: pan; wheel: zoom");
}

/// The last frames as stacked bars, one colour per phase.
void framePlot(const FrameHistory& h, float width)
{
    const auto& frames = h.frames();
    // a steady scale: the power of two above the 90th percentile (slow outliers are clipped)
    std::vector<double> totals;
    for (const auto& f : frames)
        totals.push_back(h.plottedTotal(f));
    std::sort(totals.begin(), totals.end());
    const double p90 = totals.empty() ? 1.0 : totals[totals.size() * 9 / 10];
    const double top = std::pow(2.0, std::ceil(std::log2(std::max(p90, 1.0))));
    ImGui::Text("frame times, last %zu frames (top: %.0f ms)", FrameHistory::Capacity, top);
    const ImVec2 size(width, 90);
    const ImVec2 p0 = ImGui::GetCursorScreenPos();
    ImGui::Dummy(size);
    ImDrawList* draw = ImGui::GetWindowDrawList();
    draw->AddRectFilled(p0, ImVec2(p0.x + size.x, p0.y + size.y), IM_COL32(20, 20, 24, 255));
    const float bar = size.x / float(FrameHistory::Capacity);
    const std::vector<Phase>& phases = h.plotPhases();
    const size_t n = phases.size();
    for (size_t i = 0; i < frames.size(); ++i) {
        const float x = p0.x + bar * float(FrameHistory::Capacity - frames.size() + i);
        float y = p0.y + size.y;
        for (size_t p = 0; p < n; ++p) {
            const float dy = std::min(float(FrameHistory::plottedMs(frames[i], phases[p]) / top) * size.y, y - p0.y);
            if (dy <= 0) continue;
            draw->AddRectFilled(ImVec2(x, y - dy), ImVec2(x + std::max(bar, 1.f), y), bandColour(phases, p));
            y -= dy;
        }
    }
    for (size_t p = 0; p < n; ++p) {
        ImGui::ColorButton(FrameHistory::bandName(phases[p]), ImColor(bandColour(phases, p)),
                           ImGuiColorEditFlags_NoTooltip | ImGuiColorEditFlags_NoBorder, ImVec2(10, 10));
        ImGui::SameLine();
        ImGui::TextUnformatted(FrameHistory::bandName(phases[p]));
        if (isRebuildPhase(phases[p]))
            help("The topology's rebuild (new active set, VBM, remap, multigrid levels), in the steps that ran one");
        if (p + 1 < n && ImGui::GetContentRegionAvail().x > 110) ImGui::SameLine();
    }
    if (n && ImGui::GetCursorPosX() > ImGui::GetStyle().WindowPadding.x) ImGui::NewLine();
}

/// The active voxels after each of the last frames: adaptive scenes follow the smoke, so the
/// count moves at every rebuild; fixed scenes draw a flat line. The scale starts at 0, and the
/// line is as wide as the frames it has, right-aligned, so frame i sits under bar i of the plot above.
void activeVoxelPlot(const FrameHistory& h, float width)
{
    std::vector<float> voxels;
    for (const FrameTimings& f : h.frames())
        voxels.push_back(float(f.activeVoxels));
    const float top = 1.1f * std::max(1.f, voxels.empty() ? 1.f : *std::max_element(voxels.begin(), voxels.end()));
    ImGui::Text("active voxels: %llu now (scale 0 to %.0f)",
                h.frames().empty() ? 0ull : (unsigned long long)h.frames().back().activeVoxels, double(top));
    const float w = std::max(2.f, width * float(voxels.size()) / float(FrameHistory::Capacity));
    ImGui::SetCursorPosX(ImGui::GetCursorPosX() + width - w);
    ImGui::PlotLines("##active voxels", voxels.data(), int(voxels.size()), 0, nullptr, 0.f, top, ImVec2(w, 50));
}

/// The columns after the fixed ones: the step's phases other than the whole step.
std::vector<Phase> phaseColumns(const FrameHistory& h)
{
    std::vector<Phase> out;
    for (Phase p : h.stepPhases())
        if (p != Phase::Step) out.push_back(p);
    return out;
}

void timingRow(const GuiState& s, const FrameHistory& h, size_t i, bool smoke, const std::vector<Phase>& phases)
{
    const FrameHistory::Config& c = h.configs()[i];
    ImGui::TableNextRow();
    ImGui::TableSetColumnIndex(0);
    const bool current = c.choice == s.choice;
    ImGui::TextColored(current ? ImVec4(1, 0.85f, 0.3f, 1) : ImVec4(1, 1, 1, 1), "%s%s (%zu)",
                       resolverName(c.choice.laplacian), c.choice.log2BlockWidth == 9 ? " @512" : "", c.steps.frames());
    help(resolverTooltip(c.choice.laplacian));
    ImGui::TableSetColumnIndex(1);
    const double mine = h.median(i, Phase::Step);
    ImGui::Text("%.2f", mine);
    ImGui::TableSetColumnIndex(2);
    const int b = h.baseline(c.choice);
    if (b >= 0 && mine > 0)
        ImGui::Text("%.2fx", h.median(size_t(b), Phase::Step) / mine);
    else
        ImGui::TextDisabled("-");
    int col = 3;
    if (smoke) {
        ImGui::TableSetColumnIndex(col++);
        ImGui::TextUnformatted(resolverName(c.choice.advection));
    }
    for (Phase p : phases) {
        ImGui::TableSetColumnIndex(col++);
        ImGui::Text("%.2f", h.median(i, p));
    }
}

void timingTable(const GuiState& s, const PanelInfo& info, const FrameHistory& h)
{
    if (h.configs().empty()) {
        ImGui::TextDisabled("no steps yet");
        return;
    }
    ImGui::Text("median ms per phase, per resolver used");
    const std::vector<Phase> phases = phaseColumns(h);
    const bool smoke = info.kind == SimulationKind::Smoke;
    const int columns = (smoke ? 4 : 3) + int(phases.size());
    const float rows =
        float(h.configs().size() + 1) * (ImGui::GetTextLineHeight() + 2 * ImGui::GetStyle().CellPadding.y);
    if (ImGui::BeginTable("medians", columns,
                          ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollX |
                              ImGuiTableFlags_SizingFixedFit,
                          ImVec2(0, rows + ImGui::GetStyle().ScrollbarSize + 4))) {
        // the step time and the speed-up first, so they stay in view in a narrow panel
        ImGui::TableSetupColumn("resolver (steps)");
        ImGui::TableSetupColumn("step");
        ImGui::TableSetupColumn("vs box");
        if (smoke) ImGui::TableSetupColumn("advection");
        for (Phase p : phases)
            ImGui::TableSetupColumn(phaseName(p));
        ImGui::TableSetupScrollFreeze(1, 0);
        ImGui::TableHeadersRow();
        for (size_t i = 0; i < h.configs().size(); ++i)
            timingRow(s, h, i, smoke, phases);
        ImGui::EndTable();
    }
    ImGui::TextDisabled("vs box: computeBoxStencil's step time / this one's (higher is faster)");
}

} // namespace

void drawPanels(GuiState& s, render::RenderSettings& look, SimulationParams& params, const PanelInfo& info,
                const FrameHistory& history, float width, float height)
{
    ImGui::SetNextWindowPos(ImVec2(0, 0));
    ImGui::SetNextWindowSize(ImVec2(width, height));
    ImGui::Begin("vbm-fluid", nullptr,
                 ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse |
                     ImGuiWindowFlags_NoBringToFrontOnFocus);
    ImGui::PushItemWidth(width * 0.58f);
    if (ImGui::CollapsingHeader("Simulation", ImGuiTreeNodeFlags_DefaultOpen)) simulationPanel(s, info);
    if (ImGui::CollapsingHeader("Resolvers", ImGuiTreeNodeFlags_DefaultOpen)) resolverPanel(s, info);
    if (ImGui::CollapsingHeader("Frame times", ImGuiTreeNodeFlags_DefaultOpen)) {
        framePlot(history, ImGui::GetContentRegionAvail().x);
        activeVoxelPlot(history, ImGui::GetContentRegionAvail().x);
        // CG of the current configuration's last step
        for (const auto& c : history.configs())
            if (c.choice == s.choice && c.steps.lastIterations() >= 0)
                ImGui::Text("CG: %d iterations, relative residual %.2e", c.steps.lastIterations(),
                            c.steps.lastResidual());
        timingTable(s, info, history);
    }
    if (ImGui::CollapsingHeader("Render", ImGuiTreeNodeFlags_DefaultOpen)) renderPanel(s, look, info);
    if (ImGui::CollapsingHeader("Parameters")) parameterPanel(params, info);
    if (ImGui::CollapsingHeader("Output", ImGuiTreeNodeFlags_DefaultOpen)) {
        char name[64];
        if (ImGui::Button("Screenshot (F12)")) {
            std::snprintf(name, sizeof name, "vbm-fluid-%04d.png", info.steps);
            s.screenshot = name;
        }
        ImGui::SameLine();
        if (ImGui::Button("Export .nvdb")) {
            std::snprintf(name, sizeof name, "vbm-fluid-%04d.nvdb", info.steps);
            s.exportPath = name;
        }
        ImGui::SameLine();
        if (ImGui::Button("Export .vdb")) {
            std::snprintf(name, sizeof name, "vbm-fluid-%04d.vdb", info.steps);
            s.exportPath = name;
        }
        help("Every field as a NanoVDB float grid (one per channel), or as an OpenVDB file that Blender and "
             "Houdini open (density, temperature, fuel, heat and the velocity vel; docs/export.md)");
        static int every = 1;
        bool recording = s.recordEvery > 0;
        if (ImGui::Checkbox("record .vdb every", &recording)) {
            s.recordEvery = recording ? every : 0;
            s.recordPattern = "vbm-fluid-%04d.vdb";
        }
        ImGui::SameLine();
        ImGui::SetNextItemWidth(80);
        if (ImGui::InputInt("frames", &every)) every = std::clamp(every, 1, 1000), s.recordEvery = recording ? every : 0;
        help("A frame sequence, vbm-fluid-NNNN.vdb in the folder the program started in, written on a "
             "background thread while the simulation runs");
        if (!info.lastOutput.empty()) ImGui::TextWrapped("%s", info.lastOutput.c_str());
        ImGui::TextWrapped("%s", info.renderPath.c_str());
    }
    ImGui::TextDisabled("Space pause  S step  R reset  1-7 resolver  F12 screenshot  Esc quit");
    ImGui::PopItemWidth();
    ImGui::End();
}

} // namespace vbm::app
