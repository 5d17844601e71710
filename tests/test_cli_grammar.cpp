// SPDX-License-Identifier: Apache-2.0
// The command-line grammar the three programs share (cli/CommandLine.h): every old spelling is
// read as its new one and prints its one note; the aliases print none; the on/off rule; the
// list flags. vbm-bench's parser is compiled in, so its old and new spellings are compared as
// parsed options; vbm-fluid and vbm-check are run, old against new.
#include "BenchOptions.h"
#include "CommandLine.h"
#include "RunCommand.h"
#include "TestFolder.h"

#include <nanovdb/io/IO.h>
#include <nanovdb/tools/CreatePrimitives.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using vbm::cli::ArgReader;
using vbm::cli::UsageError;

namespace {

const char* const Programs[] = {"vbm-fluid", "vbm-bench", "vbm-check"};

/// argv of `args` (the program's name first), kept alive with the strings.
struct Argv {
    explicit Argv(std::vector<std::string> args) : words(std::move(args))
    {
        words.insert(words.begin(), "program");
        for (std::string& w : words)
            pointers.push_back(w.data());
    }
    int argc() const { return int(pointers.size()); }
    char** argv() { return pointers.data(); }
    std::vector<std::string> words;
    std::vector<char*> pointers;
};

std::vector<std::string> split(const std::string& text)
{
    std::istringstream ss(text);
    std::vector<std::string> out;
    std::string w;
    while (ss >> w)
        out.push_back(w);
    return out;
}

/// Every argument as next() hands it out (flags respelled, values as they are), and the notes.
std::pair<std::vector<std::string>, std::vector<std::string>> readAll(const std::string& program,
                                                                      const std::string& args)
{
    Argv a(split(args));
    ArgReader r(program, a.argc(), a.argv());
    std::vector<std::string> out;
    while (const auto w = r.next())
        out.push_back(*w);
    return {out, r.notes()};
}

std::string note(const std::string& program, const std::string& old, const std::string& now)
{
    return program + ": note: " + old + " is now " + now + " (the old spelling goes in the next release)";
}

} // namespace

// Each old spelling of each program reads as the words it is now, with its one note; an alias
// reads as its flag with no note; another program does not know the spelling.
TEST(CliGrammar, EveryOldSpellingReadsAsItsNewOneWithOneNote)
{
    int spellings = 0;
    for (const std::string program : Programs)
        for (const vbm::cli::OldSpelling& s : vbm::cli::oldSpellingsOf(program)) {
            SCOPED_TRACE(program + " " + s.old);
            ++spellings;
            const auto [old, notes] = readAll(program, std::string(s.old) + " 128 " + s.old + " 512");
            const auto [now, none] = readAll(program, std::string(s.now) + " 128 " + s.now + " 512");
            EXPECT_EQ(old, now);
            EXPECT_TRUE(none.empty());
            if (s.alias)
                EXPECT_TRUE(notes.empty());
            else
                EXPECT_EQ(notes, std::vector<std::string>{note(program, s.old, s.now)}) << "one note, given twice";
        }
    EXPECT_EQ(spellings, 8); // --widths, --cpu, --no-decode, --frames; --width, --cpu, --gpu; --frames
    EXPECT_TRUE(readAll("vbm-fluid", "--widths 128 --cpu --gpu --width 64 --no-decode").second.empty());
    EXPECT_TRUE(readAll("vbm-check", "--frames 3 --widths 128 --no-decode").second.empty());
}

// The words an old spelling stands for: its value follows the new flag, and a value that looks
// like an old spelling is left alone.
TEST(CliGrammar, OldSpellingsKeepTheirValuesAndTouchNoValue)
{
    Argv a({"--cpu", "--widths", "128,512", "--grid", "--cpu", "--no-decode"});
    ArgReader r("vbm-bench", a.argc(), a.argv());
    EXPECT_EQ(*r.next(), "--backend");
    EXPECT_EQ(r.flag(), "--cpu"); // messages name the flag as typed
    EXPECT_EQ(r.backend(), vbm::Backend::Cpu);
    EXPECT_EQ(*r.next(), "--block-width");
    EXPECT_EQ(r.blockWidths({128, 512}), (std::vector<int>{7, 9}));
    EXPECT_EQ(*r.next(), "--grid");
    EXPECT_EQ(r.value(), "--cpu");
    EXPECT_EQ(*r.next(), "--decode");
    EXPECT_FALSE(r.onOff());
    EXPECT_FALSE(r.next());
    EXPECT_EQ(r.notes(), (std::vector<std::string>{note("vbm-bench", "--cpu", "--backend cpu"),
                                                   note("vbm-bench", "--widths", "--block-width"),
                                                   note("vbm-bench", "--no-decode", "--decode off")}));
    testing::internal::CaptureStderr();
    r.printNotes();
    EXPECT_EQ(testing::internal::GetCapturedStderr(), r.notes()[0] + "\n" + r.notes()[1] + "\n" + r.notes()[2] + "\n");

    Argv b({"--widths", "100"});
    ArgReader bad("vbm-bench", b.argc(), b.argv());
    bad.next();
    try {
        bad.blockWidths({128, 512});
        ADD_FAILURE() << "--widths 100 was taken";
    } catch (const UsageError& e) {
        EXPECT_STREQ(e.what(), "--widths takes a comma-separated list of 128,512, got '100'");
    }
}

// On/off: on, off, or the bare flag (at the end, or before the next flag) for on; anything else
// is an error naming the flag. A setting with auto reads the same way.
TEST(CliGrammar, OnOffSettingsTakeOnOffOrTheBareFlag)
{
    Argv a({"--x", "--y", "on", "--z", "off", "--t", "--u", "auto", "--v"});
    ArgReader r("vbm-fluid", a.argc(), a.argv());
    bool got[3];
    for (bool& g : got) {
        r.next();
        g = r.onOff();
    }
    EXPECT_TRUE(got[0]);
    EXPECT_TRUE(got[1]);
    EXPECT_FALSE(got[2]);
    for (const char* want : {"on", "auto", "on"}) {
        r.next();
        EXPECT_EQ(r.switchChoice({"auto", "on", "off"}), want);
    }
    EXPECT_FALSE(r.next());

    Argv b({"--decode", "yes"});
    ArgReader bad("vbm-bench", b.argc(), b.argv());
    bad.next();
    EXPECT_THROW(bad.onOff(), UsageError);
}

// List flags: comma lists, a second one adds to the first; backends as a list.
TEST(CliGrammar, ListsAndBackends)
{
    Argv a({"--block-width", "512,128,512", "--backend", "cuda,cpu", "--backend", "cpu,gpu"});
    ArgReader r("vbm-check", a.argc(), a.argv());
    r.next();
    std::vector<int> widths = r.blockWidths({64, 128, 256, 512});
    EXPECT_EQ(widths, (std::vector<int>{9, 7}));
    vbm::cli::appendNew(widths, {6, 7});
    EXPECT_EQ(widths, (std::vector<int>{9, 7, 6}));
    r.next();
    EXPECT_EQ(r.backends(), (std::vector<vbm::Backend>{vbm::Backend::Cuda, vbm::Backend::Cpu}));
    r.next();
    try {
        r.backends();
        ADD_FAILURE() << "gpu was taken";
    } catch (const UsageError& e) {
        EXPECT_STREQ(e.what(), "--backend takes a comma-separated list of cpu,cuda, got 'cpu,gpu'");
    }
}

// --help's one line of deprecated spellings comes from the same table.
TEST(CliGrammar, HelpLineListsTheDeprecatedSpellings)
{
    EXPECT_EQ(vbm::cli::deprecatedLine("vbm-fluid"), "");
    EXPECT_EQ(vbm::cli::deprecatedLine("vbm-bench"),
              "deprecated, read with a note until the next release: --widths "
              "(--block-width), --cpu (--backend cpu), --no-decode (--decode off)\n");
    EXPECT_EQ(vbm::cli::deprecatedLine("vbm-check"),
              "deprecated, read with a note until the next release: --width "
              "(--block-width), --cpu (--backend cpu), --gpu (--backend cuda)\n");
}

namespace {

/// vbm-bench's options from `args`, and what parsing printed on stderr.
std::pair<bench::Options, std::string> benchOptions(const std::string& args)
{
    Argv a(split(args));
    testing::internal::CaptureStderr();
    bench::Options o;
    try {
        o = bench::parseOptions(a.argc(), a.argv());
    } catch (...) {
        testing::internal::GetCapturedStderr();
        throw;
    }
    return {o, testing::internal::GetCapturedStderr()};
}

} // namespace

// vbm-bench: each old spelling gives the options of its new one and prints its note once.
TEST(CliGrammar, BenchOldSpellingsGiveTheSameOptionsAsTheNewOnes)
{
    const struct {
        std::string old, now, notes;
    } cases[] = {
        {"--widths 512", "--block-width 512", note("vbm-bench", "--widths", "--block-width") + "\n"},
        {"--widths 128,512 --grid small", "--grid small --block-width 128 --block-width 512,128",
         note("vbm-bench", "--widths", "--block-width") + "\n"},
        {"--cpu", "--backend cpu", note("vbm-bench", "--cpu", "--backend cpu") + "\n"},
        {"--no-decode", "--decode off", note("vbm-bench", "--no-decode", "--decode off") + "\n"},
        {"--cpu --no-decode --widths 128 --cpu", "--backend cpu --decode off --block-width 128",
         note("vbm-bench", "--cpu", "--backend cpu") + "\n" + note("vbm-bench", "--no-decode", "--decode off") + "\n" +
             note("vbm-bench", "--widths", "--block-width") + "\n"},
        {"--solver smoke-plume --frames 7", "--solver smoke-plume --steps 7", ""},
    };
    for (const auto& c : cases) {
        SCOPED_TRACE(c.old);
        const auto [old, notes] = benchOptions(c.old);
        const auto [now, none] = benchOptions(c.now);
        EXPECT_TRUE(old == now);
        EXPECT_EQ(notes, c.notes);
        EXPECT_EQ(none, "");
    }
    // the new spellings' values, and the defaults they leave
    EXPECT_EQ(benchOptions("--block-width 512").first.widths, std::vector<int>{9});
    EXPECT_EQ(benchOptions("").first.widths, (std::vector<int>{7, 9}));
    EXPECT_TRUE(benchOptions("--backend cpu").first.cpu);
    EXPECT_FALSE(benchOptions("--backend cpu --backend cuda").first.cpu);
    EXPECT_EQ(benchOptions("--backend cpu").first.rounds, 11);
    EXPECT_TRUE(benchOptions("--decode off --decode").first.decode);
    EXPECT_TRUE(benchOptions("--decode on").first.decode);
    EXPECT_TRUE(benchOptions("").first.decode);
    EXPECT_EQ(benchOptions("--steps 9").first.steps, 9);
}

// A bad value of an old or a new spelling: one line naming the flag as typed, and no note.
TEST(CliGrammar, BenchBadValuesNameTheFlagAsTyped)
{
    const std::pair<std::string, std::string> cases[] = {
        {"--widths 100", "--widths takes a comma-separated list of 128,512, got '100'"},
        {"--block-width 256", "--block-width takes a comma-separated list of 128,512, got '256'"},
        {"--backend gpu", "--backend must be cpu or cuda, got 'gpu'"},
        {"--backend cpu,cuda", "--backend must be cpu or cuda, got 'cpu,cuda'"},
        {"--decode yes", "--decode must be on or off, got 'yes'"},
        {"--frames 2", "--frames takes a whole number from 5 to 100000, got '2'"},
        {"--cpu --solver smoke-plume", "--backend cpu and --solver do not go together (--solver runs on the GPU)"},
        {"--cpu --rounds 4", "--rounds takes a whole number from 5 to 100000, got '4'"},
    };
    for (const auto& [args, message] : cases) {
        SCOPED_TRACE(args);
        testing::internal::CaptureStderr();
        try {
            Argv a(split(args));
            bench::parseOptions(a.argc(), a.argv());
            ADD_FAILURE() << "taken";
        } catch (const UsageError& e) {
            EXPECT_EQ(e.what(), message);
        }
        EXPECT_EQ(testing::internal::GetCapturedStderr(), "") << "a mistake prints no note";
    }
}

namespace {

CommandResult run(const char* path, const std::string& args) { return runCommand(std::string(path) + " " + args); }

/// The lines of `out` without the notes of old spellings, the times in brackets removed.
std::string withoutNotesAndTimes(const std::string& out)
{
    std::istringstream in(out);
    std::string line, kept;
    while (std::getline(in, line))
        if (line.find(": note: ") == std::string::npos || line.find(" is now ") == std::string::npos)
            kept += std::regex_replace(line, std::regex(" \\([0-9.]+ s\\)$"), "") + "\n";
    return kept;
}

size_t count(const std::string& text, const std::string& what)
{
    size_t n = 0;
    for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1))
        ++n;
    return n;
}

/// A small level-set sphere for vbm-check, once per test process.
fs::path smallGrid()
{
    static const fs::path p = [] {
        const fs::path f = freshFolder("vbm-cli-grammar", "grid") / "sphere.nvdb";
        nanovdb::io::writeGrid(f.string(), nanovdb::tools::createLevelSetSphere<float>(8.0, nanovdb::Vec3d(1, 2, 3)));
        return f;
    }();
    return p;
}

} // namespace

// vbm-bench, run: the old spellings are accepted next to --help, each printing one note; the
// new ones print none; a bad value is one line with exit code 2.
TEST(CliGrammar, BenchRunsWithOldAndNewSpellings)
{
    const CommandResult old = run(VBM_BENCH_PATH, "--widths 128 --cpu --no-decode --widths 512 --frames 9 --help");
    EXPECT_EQ(old.code, 0) << old.out;
    for (const char* spelling :
         {"--widths is now --block-width", "--cpu is now --backend cpu", "--no-decode is now --decode off"})
        EXPECT_EQ(count(old.out, "vbm-bench: note: " + std::string(spelling)), 1u) << spelling << "\n" << old.out;
    EXPECT_EQ(count(old.out, "note:"), 3u) << old.out;
    const CommandResult now = run(VBM_BENCH_PATH, "--block-width 128,512 --backend cpu --decode off --steps 9 --help");
    EXPECT_EQ(now.code, 0) << now.out;
    EXPECT_EQ(withoutNotesAndTimes(old.out), withoutNotesAndTimes(now.out));
    for (const char* flag : {"--block-width LIST", "--backend cpu|cuda", "--decode on|off", "--json FILE", "--steps N",
                             "--frames N", "deprecated, read with a note until the next release: --widths"})
        EXPECT_NE(now.out.find(flag), std::string::npos) << flag;
    for (const std::string args : {"--widths 100", "--block-width 100", "--backend gpu", "--decode maybe"}) {
        const CommandResult r = run(VBM_BENCH_PATH, args);
        EXPECT_EQ(r.code, 2) << r.out;
        EXPECT_EQ(count(r.out, "\n"), 1u) << r.out;
        EXPECT_EQ(r.out.rfind("vbm-bench: --", 0), 0u) << r.out;
    }
}

// vbm-check: --cpu --width 64 --width 512 checks what --backend cpu --block-width 64,512 checks,
// with two notes; --gpu is --backend cuda; bad values are one line with exit code 2.
TEST(CliGrammar, CheckOldAndNewSpellingsCheckTheSame)
{
    const std::string grid = smallGrid().string();
    const CommandResult old = run(VBM_CHECK_PATH, "--cpu --width 64 --width 512 " + grid),
                        now = run(VBM_CHECK_PATH, "--backend cpu --block-width 64,512 " + grid),
                        joined = run(VBM_CHECK_PATH, "--block-width 64 " + grid + " --backend cpu --block-width 512");
    ASSERT_EQ(old.code, 0) << old.out;
    ASSERT_EQ(now.code, 0) << now.out;
    EXPECT_EQ(count(old.out, "vbm-check: note: --cpu is now --backend cpu (the old spelling goes in the next release)"),
              1u)
        << old.out;
    EXPECT_EQ(count(old.out, "vbm-check: note: --width is now --block-width"), 1u) << old.out;
    EXPECT_EQ(count(now.out, "note"), 0u) << now.out;
    EXPECT_NE(now.out.find("14 passed, 0 failed"), std::string::npos) << now.out;
    EXPECT_EQ(withoutNotesAndTimes(old.out), withoutNotesAndTimes(now.out));
    EXPECT_EQ(withoutNotesAndTimes(joined.out), withoutNotesAndTimes(now.out));

    const CommandResult gpu = run(VBM_CHECK_PATH, "--gpu --width 128 " + grid),
                        cuda = run(VBM_CHECK_PATH, "--backend cuda --block-width 128 " + grid);
    EXPECT_EQ(gpu.code, cuda.code) << gpu.out << cuda.out;
    EXPECT_EQ(withoutNotesAndTimes(gpu.out), withoutNotesAndTimes(cuda.out));
    EXPECT_EQ(count(gpu.out, "vbm-check: note: --gpu is now --backend cuda"), 1u) << gpu.out;
    // --cpu --gpu, once a mistake, is both backends, the GPU required
    const CommandResult both = run(VBM_CHECK_PATH, "--cpu --gpu --width 128 " + grid),
                        list = run(VBM_CHECK_PATH, "--backend cpu,cuda --block-width 128 " + grid);
    EXPECT_EQ(both.code, list.code) << both.out << list.out;
    EXPECT_EQ(withoutNotesAndTimes(both.out), withoutNotesAndTimes(list.out));

    const CommandResult help = run(VBM_CHECK_PATH, "--help");
    for (const char* flag : {"--backend LIST", "--block-width LIST", "deprecated, read with a note"})
        EXPECT_NE(help.out.find(flag), std::string::npos) << flag;
    for (const std::string args : {"--width 100", "--block-width 100", "--backend gpu", "--cpu --bogus"}) {
        const CommandResult r = run(VBM_CHECK_PATH, args + " " + grid);
        EXPECT_EQ(r.code, 2) << r.out;
        EXPECT_EQ(count(r.out, "\n"), 1u) << r.out;
        EXPECT_EQ(r.out.rfind("vbm-check: ", 0), 0u) << r.out;
    }
}

// vbm-fluid: --frames is --steps (no note); --json FILE is the JSON timings; on/off settings take
// on, off or the bare flag; one value where one runs; bad values are one line with exit code 2.
TEST(CliGrammar, FluidNewSpellings)
{
    const fs::path dir = freshFolder("vbm-cli-grammar", "fluid");
    std::ofstream(dir / "tiny.scene") << "kind heat\ndomain sphere 0 0 0 6\ndt 0.1\n";
    const std::string base = "--headless --backend cpu --render none --scene " + (dir / "tiny.scene").string() + " ";
    const CommandResult frames = run(VBM_FLUID_PATH,
                                     base + "--frames 2 --fields-hash --timings " + (dir / "a.json").string()),
                        steps = run(VBM_FLUID_PATH,
                                    base + "--steps 2 --fields-hash on --json " + (dir / "b.json").string());
    ASSERT_EQ(frames.code, 0) << frames.out;
    ASSERT_EQ(steps.code, 0) << steps.out;
    const auto hashOf = [](const std::string& out) {
        std::smatch m;
        EXPECT_TRUE(std::regex_search(out, m, std::regex("fields hash: ([0-9a-f]{16})"))) << out;
        return m.empty() ? std::string() : m[1].str();
    };
    EXPECT_EQ(hashOf(frames.out), hashOf(steps.out));
    EXPECT_EQ(count(frames.out + steps.out, "note:"), 0u);
    std::smatch rows;
    ASSERT_TRUE(std::regex_search(steps.out, rows, std::regex("timings: .*b\\.json \\(([0-9]+) rows\\)"))) << steps.out;
    EXPECT_NE(frames.out.find("a.json (" + rows[1].str() + " rows)"), std::string::npos) << frames.out;

    const CommandResult off = run(VBM_FLUID_PATH, base + "--steps 1 --fields-hash off --headless on --ground");
    EXPECT_EQ(off.code, 0) << off.out;
    EXPECT_EQ(off.out.find("fields hash"), std::string::npos) << off.out;

    const CommandResult help = run(VBM_FLUID_PATH, "--help");
    for (const char* flag : {"--steps N", "--frames N", "--backend cpu|cuda", "--json FILE", "--timings FILE",
                             "--fields-hash [on|off]", "the bare flag means on"})
        EXPECT_NE(help.out.find(flag), std::string::npos) << flag;
    EXPECT_EQ(help.out.find("deprecated"), std::string::npos);

    const std::pair<std::string, std::string> bad[] = {
        {"--steps 0", "--steps takes a whole number"},
        {"--frames 0", "--frames takes a whole number"},
        {"--json t.csv", "--json FILE must end in .json"},
        {"--timings a.csv --json b.json", "--timings and --json both name the timings file"},
        {"--block-width 128,512", "--block-width must be 128 or 512"},
        {"--backend cpu,cuda", "--backend must be cpu or cuda"},
        {"--fields-hash yes", "--fields-hash must be on or off"},
        {"--headless maybe", "--headless must be on or off"},
        {"--tap-table always", "--tap-table must be auto, off or on"},
    };
    for (const auto& [args, words] : bad) {
        SCOPED_TRACE(args);
        const CommandResult r = run(VBM_FLUID_PATH, args);
        EXPECT_EQ(r.code, 2) << r.out;
        EXPECT_EQ(count(r.out, "\n"), 1u) << r.out;
        EXPECT_EQ(r.out.rfind("vbm-fluid: " + words, 0), 0u) << r.out;
    }
    fs::remove_all(dir);
}
