// SPDX-License-Identifier: Apache-2.0
// Scripts of timed commands for the window (see GuiScript.h).
#include "GuiScript.h"

#include "CommandLine.h"
#include "ResolverChoice.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace vbm::app {

using cli::UsageError;

std::vector<ScriptCommand> readScript(const std::string& path)
{
    std::ifstream in(path);
    if (!in) throw UsageError("--script: cannot read " + path);
    struct Kind {
        const char* name;
        bool argument;
    };
    static const Kind kinds[] = {
        {"resolver", true}, {"advection", true}, {"block-width", true}, {"play", false},      {"pause", false},
        {"step", false},    {"reset", false},    {"reset-view", false}, {"screenshot", true}, {"export", true},
        {"resize", true},   {"quit", false},     {"scalars", true},     {"tap-table", true},
        {"record", true}};
    std::vector<ScriptCommand> out;
    std::string text;
    for (int line = 1; std::getline(in, text); ++line) {
        text = text.substr(0, text.find('#'));
        std::istringstream words(text);
        ScriptCommand c;
        c.line = line;
        std::string frame, extra;
        if (!(words >> frame)) continue; // blank or comment
        const std::string where = path + ":" + std::to_string(line) + ": ";
        char* end = nullptr;
        const long f = std::strtol(frame.c_str(), &end, 10);
        if (*end || f < 0 || f > 100000000)
            throw UsageError(where + "a line starts with a frame number, got '" + frame + "'");
        c.frame = int(f);
        if (!(words >> c.command)) throw UsageError(where + "a command follows the frame number");
        const auto kind =
            std::find_if(std::begin(kinds), std::end(kinds), [&](const Kind& k) { return c.command == k.name; });
        if (kind == std::end(kinds)) throw UsageError(where + "unknown command '" + c.command + "'");
        if (kind->argument && !(words >> c.argument)) throw UsageError(where + c.command + " needs an argument");
        if (words >> extra) throw UsageError(where + "unexpected '" + extra + "' after " + c.command);
        if (!out.empty() && c.frame < out.back().frame) throw UsageError(where + "frame numbers must not decrease");
        if ((c.command == "resolver" || c.command == "advection") && !parseResolver(c.argument))
            throw UsageError(where + "unknown resolver '" + c.argument + "'");
        if (c.command == "advection")
            if (const std::string why = stepKindRefusal(*parseResolver(c.argument), StepKind::Advection); !why.empty())
                throw UsageError(where + why);
        if (c.command == "scalars" && c.argument != "float" && c.argument != "half")
            throw UsageError(where + "scalars takes float or half");
        if (c.command == "tap-table" && c.argument != "on" && c.argument != "off")
            throw UsageError(where + "tap-table takes on or off");
        if (c.command == "record" && c.argument != "off" && c.argument.find("%04d") == std::string::npos)
            throw UsageError(where + "record takes off or a .vdb or .nvdb name with %04d for the frame");
        if (c.command == "block-width" && c.argument != "128" && c.argument != "512")
            throw UsageError(where + "block-width takes 128 or 512");
        if (c.command == "resize" && !parseWindowSize(c.argument))
            throw UsageError(where + "resize takes WxH, 64 to 8192 pixels each, got '" + c.argument + "'");
        out.push_back(c);
    }
    return out;
}

std::optional<std::pair<int, int>> parseWindowSize(const std::string& text)
{
    int w = 0, h = 0;
    char x = 0, rest = 0;
    if (std::sscanf(text.c_str(), "%d%c%d%c", &w, &x, &h, &rest) != 3 || x != 'x') return std::nullopt;
    if (w < 64 || h < 64 || w > 8192 || h > 8192) return std::nullopt;
    return std::pair{w, h};
}

std::vector<ScriptCommand> Script::due(int frame)
{
    std::vector<ScriptCommand> now;
    while (mNext < mCommands.size() && mCommands[mNext].frame <= frame)
        now.push_back(mCommands[mNext++]);
    return now;
}

} // namespace vbm::app
