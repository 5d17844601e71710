// SPDX-License-Identifier: Apache-2.0
// The shared command-line helper (see CommandLine.h).
#include "CommandLine.h"

#include "GridFile.h"
#include "Scene.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <new>
#include <sstream>

#include <unistd.h> // access

namespace vbm::cli {

namespace {

/// Every old spelling of the three programs, and the aliases: the one table (see the grammar in
/// CommandLine.h). A spelling goes from here, and from the tests, in the release after it came.
const OldSpelling OldSpellings[] = {
    {"vbm-bench", "--widths", "--block-width"},
    {"vbm-bench", "--cpu", "--backend cpu"},
    {"vbm-bench", "--no-decode", "--decode off"},
    {"vbm-check", "--width", "--block-width"},
    {"vbm-check", "--cpu", "--backend cpu"},
    {"vbm-check", "--gpu", "--backend cuda"},
    {"vbm-fluid vbm-bench", "--frames", "--steps", true},
};

bool readBy(const OldSpelling& s, const std::string& program)
{
    std::stringstream ss(s.programs);
    std::string p;
    while (ss >> p)
        if (p == program) return true;
    return false;
}

std::vector<std::string> wordsOf(const std::string& text)
{
    std::stringstream ss(text);
    std::vector<std::string> out;
    std::string w;
    while (ss >> w)
        out.push_back(w);
    return out;
}

} // namespace

std::vector<OldSpelling> oldSpellingsOf(const std::string& program)
{
    std::vector<OldSpelling> out;
    for (const OldSpelling& s : OldSpellings)
        if (readBy(s, program)) out.push_back(s);
    return out;
}

std::string deprecatedLine(const std::string& program)
{
    std::string line;
    for (const OldSpelling& s : oldSpellingsOf(program))
        if (!s.alias) line += (line.empty() ? "" : ", ") + std::string(s.old) + " (" + s.now + ")";
    return line.empty() ? line : "deprecated, read with a note until the next release: " + line + "\n";
}

void appendNew(std::vector<int>& list, const std::vector<int>& items)
{
    for (int x : items)
        if (std::find(list.begin(), list.end(), x) == list.end()) list.push_back(x);
}

ArgReader::ArgReader(std::string program, int argc, char** argv)
    : mArgs(argv + (argc > 0 ? 1 : 0), argv + argc), mProgram(std::move(program))
{
}

std::string listOf(const std::vector<std::string>& items)
{
    std::string s;
    for (size_t i = 0; i < items.size(); ++i)
        s += (i ? (i + 1 == items.size() ? " or " : ", ") : "") + items[i];
    return s;
}

std::optional<std::string> ArgReader::next()
{
    if (mNext >= mArgs.size()) return std::nullopt;
    mFlag = mArgs[mNext++];
    return respell();
}

std::string ArgReader::respell()
{
    for (const OldSpelling& s : OldSpellings) {
        if (mFlag != s.old || !readBy(s, mProgram)) continue;
        const std::vector<std::string> now = wordsOf(s.now);
        mArgs.insert(mArgs.begin() + long(mNext), now.begin() + 1, now.end());
        if (!s.alias && std::find(mNoted.begin(), mNoted.end(), mFlag) == mNoted.end()) {
            mNoted.push_back(mFlag);
            mNotes.push_back(mProgram + ": note: " + mFlag + " is now " + s.now +
                             " (the old spelling goes in the next release)");
        }
        return now[0];
    }
    return mFlag;
}

void ArgReader::printNotes() const
{
    for (const std::string& n : mNotes)
        std::fprintf(stderr, "%s\n", n.c_str());
}

std::string ArgReader::value()
{
    if (mNext >= mArgs.size()) throw UsageError(mFlag + " needs a value");
    return mArgs[mNext++];
}

long ArgReader::integer(long lo, long hi)
{
    const std::string v = value();
    char* end = nullptr;
    const long x = std::strtol(v.c_str(), &end, 10);
    if (v.empty() || *end || x < lo || x > hi)
        throw UsageError(mFlag + " takes a whole number from " + std::to_string(lo) + " to " + std::to_string(hi) +
                         ", got '" + v + "'");
    return x;
}

double ArgReader::real()
{
    const std::string v = value();
    char* end = nullptr;
    const double x = std::strtod(v.c_str(), &end);
    if (v.empty() || *end || !std::isfinite(x)) throw UsageError(mFlag + " takes a number, got '" + v + "'");
    return x;
}

std::vector<int> ArgReader::list(const std::vector<int>& allowed)
{
    const std::string v = value();
    std::vector<int> out;
    std::stringstream ss(v);
    std::string item;
    while (std::getline(ss, item, ',')) {
        char* end = nullptr;
        const long x = std::strtol(item.c_str(), &end, 10);
        if (item.empty() || *end || std::find(allowed.begin(), allowed.end(), int(x)) == allowed.end()) {
            std::string a;
            for (int y : allowed)
                a += (a.empty() ? "" : ",") + std::to_string(y);
            throw UsageError(mFlag + " takes a comma-separated list of " + a + ", got '" + v + "'");
        }
        if (std::find(out.begin(), out.end(), int(x)) == out.end()) out.push_back(int(x));
    }
    if (out.empty()) throw UsageError(mFlag + " needs at least one value");
    return out;
}

std::vector<std::string> ArgReader::words(const std::vector<std::string>& allowed)
{
    const std::string v = value();
    std::vector<std::string> out;
    std::stringstream ss(v);
    std::string item;
    while (std::getline(ss, item, ',')) {
        if (std::find(allowed.begin(), allowed.end(), item) == allowed.end()) {
            std::string a;
            for (const std::string& y : allowed)
                a += (a.empty() ? "" : ",") + y;
            throw UsageError(mFlag + " takes a comma-separated list of " + a + ", got '" + v + "'");
        }
        if (std::find(out.begin(), out.end(), item) == out.end()) out.push_back(item);
    }
    if (out.empty()) throw UsageError(mFlag + " needs at least one value");
    return out;
}

std::string ArgReader::choice(const std::vector<std::string>& choices)
{
    const std::string v = value();
    if (std::find(choices.begin(), choices.end(), v) == choices.end())
        throw UsageError(mFlag + " must be " + listOf(choices) + ", got '" + v + "'");
    return v;
}

std::string ArgReader::switchChoice(const std::vector<std::string>& choices)
{
    // The bare flag: at the end, or before the next flag.
    if (mNext >= mArgs.size() || mArgs[mNext].starts_with("-")) return "on";
    return choice(choices);
}

bool ArgReader::onOff() { return switchChoice({"on", "off"}) == "on"; }

std::string ArgReader::path(const std::vector<std::string>& suffixes)
{
    const std::string v = value();
    for (const std::string& s : suffixes)
        if (v.size() > s.size() && v.compare(v.size() - s.size(), s.size(), s) == 0) return v;
    throw UsageError(mFlag + " FILE must end in " + listOf(suffixes) + ", got '" + v + "'");
}

std::string ArgReader::outputPath(const std::vector<std::string>& suffixes)
{
    const std::string v = suffixes.empty() ? value() : path(suffixes);
    const std::filesystem::path p(v);
    const std::filesystem::path dir = p.has_parent_path() ? p.parent_path() : std::filesystem::path(".");
    std::error_code ec;
    if (std::filesystem::is_directory(p, ec)) throw UsageError(mFlag + " " + v + ": is a folder, not a file");
    if (!std::filesystem::is_directory(dir, ec))
        throw UsageError(mFlag + " " + v + ": the folder '" + dir.string() + "' does not exist");
    if (access(dir.c_str(), W_OK) != 0)
        throw UsageError(mFlag + " " + v + ": the folder '" + dir.string() + "' is not writable");
    return v;
}

Resolver ArgReader::resolver()
{
    const std::string v = value();
    if (auto r = parseResolver(v)) return *r;
    std::string names;
    for (Resolver r : AllResolvers)
        names += (names.empty() ? "" : ", ") + std::string(resolverName(r));
    throw UsageError(mFlag + ": unknown resolver '" + v + "' (one of " + names + ")");
}

Backend ArgReader::backend() { return choice({"cpu", "cuda"}) == "cuda" ? Backend::Cuda : Backend::Cpu; }

std::vector<Backend> ArgReader::backends()
{
    std::vector<Backend> out;
    for (const std::string& b : words({"cpu", "cuda"}))
        out.push_back(b == "cuda" ? Backend::Cuda : Backend::Cpu);
    return out;
}

int ArgReader::blockWidth(const std::vector<int>& widths)
{
    std::vector<std::string> names;
    for (int w : widths)
        names.push_back(std::to_string(w));
    const int w = std::stoi(choice(names));
    int l = 0;
    while ((1 << l) < w)
        ++l;
    return l;
}

std::vector<int> ArgReader::blockWidths(const std::vector<int>& widths)
{
    std::vector<int> out;
    for (int w : list(widths)) {
        int l = 0;
        while ((1 << l) < w)
            ++l;
        out.push_back(l);
    }
    return out;
}

int guardedMain(const char* program, const std::function<int()>& body)
{
    try {
        return body();
    } catch (const UsageError& e) {
        std::fprintf(stderr, "%s: %s (see %s --help)\n", program, e.what(), program);
        return 2;
    } catch (const SceneError& e) {
        std::fprintf(stderr, "%s: %s\n", program, e.what());
        return 2;
    } catch (const InputError& e) {
        std::fprintf(stderr, "%s: %s\n", program, e.what());
        return 2;
    } catch (const std::invalid_argument& e) {
        std::fprintf(stderr, "%s: %s\n", program, e.what());
        return 2;
    } catch (const std::bad_alloc&) {
        std::fprintf(stderr, "%s: out of host memory: pick a smaller scene or grid\n", program);
        return 1;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "%s: %s\n", program, e.what());
        return 1;
    } catch (...) {
        std::fprintf(stderr, "%s: an unknown failure\n", program);
        return 1;
    }
}

} // namespace vbm::cli
