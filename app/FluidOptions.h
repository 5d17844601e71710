// SPDX-License-Identifier: Apache-2.0
// vbm-fluid's command line: the options of the window and of the headless run, read with the
// shared command-line helper and in its grammar (cli/CommandLine.h), whose cli::UsageError
// reports a bad flag.
#pragma once

#include "SolverTypes.h"
#include "VdbExport.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>

namespace vbm::app {

struct Options {
    bool help = false;
    bool headless = false; ///< no window: the profiling run (also taken when no display can be opened)
    std::string script;    ///< window: a file of timed commands (docs/gui.md)
    int frames = 100;                  ///< --steps N (or --frames N): steps to run, one per frame
    std::string scene;                 ///< built-in name or .scene file; "" = the backend's default
    std::optional<Backend> backend;    ///< unset: CUDA when a GPU is usable, else the CPU
    bool allResolvers = false;         ///< --resolver all: every resolver in turn, frame by frame
    std::optional<Resolver> resolver;  ///< --resolver NAME: Laplacian-type steps (and advection if a box one)
    std::optional<Resolver> advection; ///< --advection-resolver NAME
    int log2BlockWidth = 7;
    std::optional<ScalarStorage> scalars; ///< --scalars float|half: smoke's density and temperature storage
    std::optional<double> maxCfl;         ///< --max-cfl X: smoke's CFL limit per advection substep (scene max_cfl)
    std::optional<TapTableMode> tapTable; ///< --tap-table auto|on|off: store the fine level's cross taps (scene tap_table)
    std::string render = "offscreen";     ///< offscreen (Vulkan compute, no window) or none
    bool renderExplicit = false;          ///< --render given: a failure to render is an error, not a note
    std::string interop = "auto"; ///< auto (shared CUDA-Vulkan memory where possible), on (required), off (staging)
    uint32_t width = 640, height = 480;
    bool sizeExplicit = false; ///< --size given (the window's size; else 1280x800)
    std::string screenshot;    ///< PNG of the last frame; %04d in the name: every frame
    bool blockOverlay = false; ///< --overlay blocks: colour voxels by VBM block instead of the field
    std::string look;          ///< --look: density, emission, fire or blocks; "" = the scene's
    std::optional<std::pair<double, double>> range; ///< --range LO:HI: a fixed colormap; unset: it follows the field
    std::optional<std::pair<double, double>> light; ///< --light AZ:EL, degrees
    uint32_t renderScale = 0; ///< --render-scale 1|2|4: pixels per ray along each axis; 0 = the device's default
    bool ground = true;       ///< --ground off: no ground plane
    std::optional<uint32_t> lightCells;  ///< --light-cells N: the light volume's cells along the box's longest side
    std::optional<double> rayStep;       ///< --ray-step S: the ray march's step in voxels
    std::optional<double> densityScale;  ///< --density-scale X: extinction per unit density per voxel
    int sliceAxis = -1;                  ///< --slice AXIS[:POS]: 0, 1, 2 or -1 for none
    std::optional<double> slicePosition; ///< unset: the middle of the grid
    std::string timings;                 ///< --timings FILE (.csv or .json) or --json FILE (.json)
    std::string timingsFlag;             ///< the flag that named it, --timings or --json
    std::string exportPath;              ///< headless: .nvdb of every field after the last frame
    int exportEvery = 0;                 ///< headless: --export-every K FILE (0: none)
    std::string exportPattern;           ///< its .vdb or .nvdb file name, %04d for the frame
    int exportWriters = 0;               ///< --export-writers N (0: defaultExportWriters)
    VdbStorage exportStorage;            ///< --export-compression, --export-precision
    std::string exportVdbFlag;           ///< the last .vdb-only export flag given ("" if none)
    bool fieldsHash = false;             ///< headless: print Solver::fieldsHash after the last frame
    int checkpointEvery = 0;             ///< headless: --checkpoint-every K DIR (0: none)
    std::string checkpointDir;           ///< its folder (made if missing)
    std::string resume;                  ///< headless: --resume FILE, a checkpoint to go on from
    std::optional<uint32_t> seed; ///< --seed: replaces the scene's seed
};

/// Reads argv; throws cli::UsageError naming the flag of the first mistake. Once read, prints
/// the note of each old spelling used on stderr.
Options parseOptions(int argc, char** argv);
/// The text of --help.
extern const char* Usage;

} // namespace vbm::app
