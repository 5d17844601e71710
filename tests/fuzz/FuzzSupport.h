// SPDX-License-Identifier: Apache-2.0
// Shared by the libFuzzer targets: a private scratch folder, and the rule for what is a finding.
// The targets catch the errors that are the correct answer to bad input (SceneError,
// InputError); anything else escaping, a crash, a sanitizer report or a hang is a finding.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <unistd.h>

namespace vbm::fuzz {

/// A folder of this process only (removed at exit), for files the targets need.
inline const std::filesystem::path& scratchDir()
{
    static const std::filesystem::path dir = [] {
        std::string tmpl = (std::filesystem::temp_directory_path() / "vbm-fuzz-XXXXXX").string();
        if (!mkdtemp(tmpl.data())) {
            std::perror("vbm-fuzz: mkdtemp");
            std::abort();
        }
        std::atexit([] {
            std::error_code ec;
            std::filesystem::remove_all(scratchDir(), ec);
        });
        return std::filesystem::path(tmpl);
    }();
    return dir;
}

/// Reports a broken promise (an API returned something its contract excludes) and aborts,
/// so libFuzzer saves the input.
[[noreturn]] inline void lie(const std::string& what)
{
    std::fprintf(stderr, "vbm-fuzz: FINDING (contract broken): %s\n", what.c_str());
    std::abort();
}

} // namespace vbm::fuzz
