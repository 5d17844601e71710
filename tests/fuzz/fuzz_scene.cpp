// SPDX-License-Identifier: Apache-2.0
// libFuzzer target: the bytes are scene text for vbm::parseScene (assets/scenes/README.md).
// SceneError and InputError are the correct answer to bad text; any other exception, a
// crash, a sanitizer report or a timeout is a finding (docs/testing.md).
// The scene's folder is a scratch folder holding one small float level set, "sphere.nvdb",
// so `domain nvdb sphere.nvdb interior|band` reaches the .nvdb path. Inputs with a line that
// holds both "nvdb" and '/' are skipped: the target must not read arbitrary files
// (/dev/zero, /proc/..., ../); every path the parser opens is then inside the scratch folder.
// Inputs with a number whose size lies in (64, 2^30] are skipped too: a legitimately large
// domain or ball (`domain sphere 2 4 0 736`: 1.7G voxels) costs what its size costs, which is a
// timeout or an out-of-memory under ASan, not a finding. Numbers past 2^30 (the safe index
// range), and every malformed one, still reach the parser, which must refuse them.
#include "FuzzSupport.h"

#include "GridFile.h"
#include "Scene.h"
#include "vbm/BuildVoxelBlockManager.h"

#include <nanovdb/io/IO.h>
#include <nanovdb/tools/CreatePrimitives.h>

#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>

namespace {

std::string baseDir;

/// Whether a word of `line` is a number of size in (64, 2^30].
bool hasLargeLegalNumber(std::string_view line)
{
    for (size_t i = 0; i < line.size();) {
        while (i < line.size() && std::isspace(static_cast<unsigned char>(line[i])))
            ++i;
        size_t j = i;
        while (j < line.size() && !std::isspace(static_cast<unsigned char>(line[j])))
            ++j;
        const std::string word(line.substr(i, j - i));
        char* end = nullptr;
        const double v = std::strtod(word.c_str(), &end);
        if (!word.empty() && *end == '\0' && std::fabs(v) > 64 && std::fabs(v) <= double(1 << 30)) return true;
        i = j;
    }
    return false;
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***)
{
    baseDir = vbm::fuzz::scratchDir().string();
    auto sphere = nanovdb::tools::createLevelSetSphere<float>(6.0, nanovdb::Vec3d(40.0), 1.0, 3.0);
    nanovdb::io::writeGrid(baseDir + "/sphere.nvdb", sphere);
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const std::string text(reinterpret_cast<const char*>(data), size);
    for (size_t begin = 0; begin < text.size();) {
        size_t end = text.find('\n', begin);
        if (end == std::string::npos) end = text.size();
        const std::string_view line(text.data() + begin, end - begin);
        if (line.find("nvdb") != line.npos && line.find('/') != line.npos) return 0;
        if (hasLargeLegalNumber(line)) return 0;
        begin = end + 1;
    }
    try {
        vbm::Scene scene = vbm::parseScene(text, "fuzz.scene", baseDir);
        const auto* g = scene.grid.grid<nanovdb::ValueOnIndex>();
        if (!g) vbm::fuzz::lie("parseScene returned a scene without an OnIndex grid");
        // Initial fields are per value index (lastOffset + 1 entries, Scene.h) or empty.
        const uint64_t n = vbm::vbmExtent(g, 7).lastOffset + 1;
        for (const auto* f : {&scene.temperature, &scene.density, &scene.fixed, &scene.emitter})
            if (!f->empty() && f->size() != n)
                vbm::fuzz::lie("a field has " + std::to_string(f->size()) + " values, the grid " + std::to_string(n));
    } catch (const vbm::SceneError&) {
    } catch (const vbm::InputError&) {
    }
    return 0;
}
