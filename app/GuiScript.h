// SPDX-License-Identifier: Apache-2.0
// A script of timed commands that drives the window as a user would (docs/gui.md has the
// format): one command per line, "FRAME COMMAND [ARGUMENT]", run at the start of that frame.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace vbm::app {

struct ScriptCommand {
    int frame = 0;
    std::string command;  ///< resolver, advection, block-width, play, pause, step, reset, reset-view,
                          ///< screenshot, export, resize, quit
    std::string argument; ///< the resolver name, width, file or WxH size, where the command takes one
    int line = 0;
};

/// "WxH" with both in 64..8192, or nothing.
std::optional<std::pair<int, int>> parseWindowSize(const std::string& text);

/// Reads a script; throws cli::UsageError naming the file and line of a malformed command.
std::vector<ScriptCommand> readScript(const std::string& path);

/// Hands out the commands whose frame has come, in file order.
class Script {
public:
    Script() = default;
    explicit Script(std::vector<ScriptCommand> commands) : mCommands(std::move(commands)) {}
    std::vector<ScriptCommand> due(int frame);
    bool empty() const { return mCommands.empty(); }

private:
    std::vector<ScriptCommand> mCommands;
    size_t mNext = 0;
};

} // namespace vbm::app
