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
    return mFlag;
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

std::string ArgReader::choice(const std::vector<std::string>& choices)
{
    const std::string v = value();
    if (std::find(choices.begin(), choices.end(), v) == choices.end())
        throw UsageError(mFlag + " must be " + listOf(choices) + ", got '" + v + "'");
    return v;
}

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

Backend ArgReader::backend() { return choice({"cuda", "cpu"}) == "cuda" ? Backend::Cuda : Backend::Cpu; }

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
