// The window's panels (see GuiPanels.h).
#include "GuiPanels.h"

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

ImU32 phaseColour(size_t i, size_t n)
{
    return ImColor::HSV(float(i) / float(std::max<size_t>(n, 1)), 0.65f, 0.95f);
}

/// The resolver combo of one step kind; `boxOnly` for advection.
void resolverCombo(const char* label, Resolver& r, bool boxOnly, bool cpu)
{
    if (!ImGui::BeginCombo(label, resolverName(r))) {
        help(resolverTooltip(r));
        return;
    }
    for (size_t i = 0; i < AllResolvers.size(); ++i) {
        const Resolver c = AllResolvers[i];
        if (boxOnly && !isBoxResolver(c)) continue;
        const bool unavailable = cpu && c == Resolver::NanoVDB13;
        ImGui::BeginDisabled(unavailable);
        char item[64];
        std::snprintf(item, sizeof item, "%zu  %s", i + 1, resolverName(c));
        if (ImGui::Selectable(item, c == r)) r = c;
        ImGui::EndDisabled();
        if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
            ImGui::SetTooltip("%s%s", resolverTooltip(c), unavailable ? "\n(needs the CUDA backend)" : "");
    }
    ImGui::EndCombo();
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
        if (want == Backend::Cpu && s.choice.laplacian == Resolver::NanoVDB13)
            s.choice.laplacian = Resolver::computeBoxStencil;
        if (want == Backend::Cpu && s.choice.advection == Resolver::NanoVDB13)
            s.choice.advection = Resolver::computeBoxStencil;
    }
    ImGui::TextWrapped("%s", info.device.c_str());
    ImGui::Text("%llu active voxels, %llu blocks of %d", (unsigned long long)info.voxels,
                (unsigned long long)info.blocks, 1 << s.choice.log2BlockWidth);
}

void resolverPanel(GuiState& s, const PanelInfo& info)
{
    const bool cpu = s.backend == Backend::Cpu;
    resolverCombo("Laplacian-type", s.choice.laplacian, false, cpu);
    help("Diffusion, divergence, the Poisson matrix-vector product, gradient, averaging: any of the seven. Keys "
         "1-7 pick one (a box one is used for advection too).");
    ImGui::BeginDisabled(info.kind != SimulationKind::Smoke);
    resolverCombo("advection", s.choice.advection, true, cpu);
    ImGui::EndDisabled();
    help("Semi-Lagrangian advection needs the 27-tap box (smoke only).");
    int width = s.choice.log2BlockWidth == 9 ? 1 : 0;
    ImGui::Text("block width");
    ImGui::SameLine();
    ImGui::RadioButton("128", &width, 0);
    ImGui::SameLine();
    ImGui::RadioButton("512", &width, 1);
    s.choice.log2BlockWidth = width ? 9 : 7;
    s.look.log2BlockWidth = s.choice.log2BlockWidth;
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
        slider("max CFL", p.maxCfl, 0.1, 1.0, "%.2f");
        help("Advection substeps keep the CFL number at most this");
        slider("buoyancy", p.buoyancy, 0.0, 2.0, "%.2f");
        slider("emitter density", p.emitDensity, 0.0, 4.0, "%.2f");
        slider("emitter temperature", p.emitTemperature, 0.0, 4.0, "%.2f");
        slider("vorticity", p.vorticity, 0.0, 1.0, "%.2f");
    }
    slider("CG tolerance", p.cgTolerance, 1e-8, 1e-2, "%.1e", true);
    ImGui::SliderInt("CG iteration cap", &p.cgMaxIterations, 1, 2000);
}

void renderPanel(GuiState& s, const PanelInfo& info)
{
    int mode = int(s.look.mode);
    const char* modes[] = {"density (lit smoke)", "colormap (emission)", "VBM blocks"};
    ImGui::Combo("look", &mode, modes, 3);
    help("VBM blocks colours each voxel by its block, to see how blocks of 128 or 512 voxels cut the leaves");
    s.look.mode = render::RenderMode(mode);
    ImGui::TextWrapped("%s", info.renderPath.c_str());
    ImGui::Text("host copies for the last field: %.1f MB", double(info.hostBytesLastField) / 1e6);
    ImGui::SliderFloat("density scale", &s.look.densityScale, 0.01f, 4.f, "%.2f", ImGuiSliderFlags_Logarithmic);
    if (s.look.mode == render::RenderMode::Emission) {
        ImGui::DragFloat("colormap low", &s.look.rangeLo, 0.5f);
        ImGui::DragFloat("colormap high", &s.look.rangeHi, 0.5f);
    }
    int axis = s.look.sliceAxis + 1;
    ImGui::Text("slice");
    for (int a = 0; a < 4; ++a) {
        ImGui::SameLine();
        const char* names[] = {"off", "x", "y", "z"};
        if (ImGui::RadioButton(names[a], axis == a) && axis != a) {
            axis = a;
            if (a > 0) s.look.slicePosition = std::floor(0.5f * (info.boxMin[a - 1] + info.boxMax[a - 1]));
        }
    }
    s.look.sliceAxis = axis - 1;
    if (s.look.sliceAxis >= 0)
        ImGui::SliderFloat("slice at", &s.look.slicePosition, info.boxMin[s.look.sliceAxis],
                           info.boxMax[s.look.sliceAxis] - 1, "%.0f");
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
        totals.push_back(f.total());
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
    const size_t n = h.phases().size();
    for (size_t i = 0; i < frames.size(); ++i) {
        const float x = p0.x + bar * float(FrameHistory::Capacity - frames.size() + i);
        float y = p0.y + size.y;
        for (size_t p = 0; p < frames[i].ms.size(); ++p) {
            const float dy = std::min(float(frames[i].ms[p] / top) * size.y, y - p0.y);
            if (dy <= 0) continue;
            draw->AddRectFilled(ImVec2(x, y - dy), ImVec2(x + std::max(bar, 1.f), y), phaseColour(p, n));
            y -= dy;
        }
    }
    for (size_t p = 0; p < n; ++p) {
        if (h.phases()[p] == "step") continue; // the sum of the others
        ImGui::ColorButton(h.phases()[p].c_str(), ImColor(phaseColour(p, n)),
                           ImGuiColorEditFlags_NoTooltip | ImGuiColorEditFlags_NoBorder, ImVec2(10, 10));
        ImGui::SameLine();
        ImGui::TextUnformatted(h.phases()[p].c_str());
        if (p + 1 < n && ImGui::GetContentRegionAvail().x > 110) ImGui::SameLine();
    }
    if (h.phases().size() && ImGui::GetCursorPosX() > ImGui::GetStyle().WindowPadding.x) ImGui::NewLine();
}

void timingTable(const GuiState& s, const PanelInfo& info, const FrameHistory& h)
{
    const int stepCol = h.stepPhase();
    if (h.configs().empty() || stepCol < 0) {
        ImGui::TextDisabled("no steps yet");
        return;
    }
    ImGui::Text("median ms per phase, per resolver used");
    const auto& phases = h.phases();
    const bool smoke = info.kind == SimulationKind::Smoke;
    int columns = smoke ? 4 : 3;
    for (const auto& p : phases)
        columns += p != "render" && p != "step";
    const float rows = float(h.configs().size() + 1) * (ImGui::GetTextLineHeight() + 2 * ImGui::GetStyle().CellPadding.y);
    if (ImGui::BeginTable("medians", columns,
                          ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollX |
                              ImGuiTableFlags_SizingFixedFit,
                          ImVec2(0, rows + ImGui::GetStyle().ScrollbarSize + 4))) {
        // the step time and the speed-up first, so they stay in view in a narrow panel
        ImGui::TableSetupColumn("resolver (steps)");
        ImGui::TableSetupColumn("step");
        ImGui::TableSetupColumn("vs box");
        if (smoke) ImGui::TableSetupColumn("advection");
        for (const auto& p : phases)
            if (p != "render" && p != "step") ImGui::TableSetupColumn(p.c_str());
        ImGui::TableSetupScrollFreeze(1, 0);
        ImGui::TableHeadersRow();
        for (const auto& c : h.configs()) {
            ImGui::TableNextRow();
            ImGui::TableSetColumnIndex(0);
            const bool current = c.choice.laplacian == s.choice.laplacian && c.choice.advection == s.choice.advection &&
                                 c.choice.log2BlockWidth == s.choice.log2BlockWidth;
            ImGui::TextColored(current ? ImVec4(1, 0.85f, 0.3f, 1) : ImVec4(1, 1, 1, 1), "%s%s (%d)",
                               resolverName(c.choice.laplacian), c.choice.log2BlockWidth == 9 ? " @512" : "", c.steps);
            help(resolverTooltip(c.choice.laplacian));
            ImGui::TableSetColumnIndex(1);
            const double mine = FrameHistory::median(c.samples[size_t(stepCol)]);
            ImGui::Text("%.2f", mine);
            ImGui::TableSetColumnIndex(2);
            const int b = h.baseline(c.choice);
            if (b >= 0 && mine > 0)
                ImGui::Text("%.2fx", FrameHistory::median(h.configs()[size_t(b)].samples[size_t(stepCol)]) / mine);
            else
                ImGui::TextDisabled("-");
            int col = 3;
            if (smoke) {
                ImGui::TableSetColumnIndex(col++);
                ImGui::TextUnformatted(resolverName(c.choice.advection));
            }
            for (size_t p = 0; p < phases.size(); ++p) {
                if (phases[p] == "render" || phases[p] == "step") continue;
                ImGui::TableSetColumnIndex(col++);
                ImGui::Text("%.2f", p < c.samples.size() ? FrameHistory::median(c.samples[p]) : 0.0);
            }
        }
        ImGui::EndTable();
    }
    ImGui::TextDisabled("vs box: computeBoxStencil's step time / this one's (higher is faster)");
}

} // namespace

void drawPanels(GuiState& s, SimulationParams& params, const PanelInfo& info, const FrameHistory& history,
                float width, float height)
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
        // CG of the current configuration's last step
        for (const auto& c : history.configs())
            if (c.choice.laplacian == s.choice.laplacian && c.choice.advection == s.choice.advection &&
                c.choice.log2BlockWidth == s.choice.log2BlockWidth && c.lastIterations >= 0)
                ImGui::Text("CG: %d iterations, relative residual %.2e", c.lastIterations, c.lastResidual);
        timingTable(s, info, history);
    }
    if (ImGui::CollapsingHeader("Render", ImGuiTreeNodeFlags_DefaultOpen)) renderPanel(s, info);
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
        help("Every field as a NanoVDB float grid (one per channel), for other tools");
        if (!info.lastOutput.empty()) ImGui::TextWrapped("%s", info.lastOutput.c_str());
        ImGui::TextWrapped("%s", info.renderPath.c_str());
    }
    ImGui::TextDisabled("Space pause  S step  R reset  1-7 resolver  F12 screenshot  Esc quit");
    ImGui::PopItemWidth();
    ImGui::End();
}

} // namespace vbm::app
