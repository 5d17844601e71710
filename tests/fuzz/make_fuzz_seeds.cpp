// SPDX-License-Identifier: Apache-2.0
// Writes the small .nvdb seeds of corpus/fuzz_grid_file/ into the folder given as argument:
// every kind of grid loadGridFile reads (float, double, OnIndex as stored, OnIndex with tiles
// and stats to re-index, active tiles to expand), one it skips (Fp8) and a two-grid file.
// Every grid lies in one upper internal node (0..4095 on each axis): NanoVDB's smallest file
// is about 300 KB (an upper node's 32^3 table), so the seeds are checked in gzipped
// (mostly zeros: a few KB each) and scripts/fuzz.sh unpacks them.
// Usage: make_fuzz_seeds DIR   (docs/testing.md)
#include "GridGenerators.h"

#include <nanovdb/io/IO.h>
#include <nanovdb/tools/CreateNanoGrid.h>
#include <nanovdb/tools/CreatePrimitives.h>

#include <cstdio>
#include <string>
#include <vector>

int main(int argc, char** argv)
{
    if (argc != 2) {
        std::fprintf(stderr, "usage: make_fuzz_seeds DIR\n");
        return 2;
    }
    const std::string dir = argv[1];
    using nanovdb::Vec3d;
    auto sphere = nanovdb::tools::createLevelSetSphere<float>(3.0, Vec3d(40.0), 1.0, 1.5);
    const auto* fgrid = sphere.grid<float>();
    nanovdb::io::writeGrid(dir + "/sphere-float.nvdb", sphere);
    nanovdb::io::writeGrid(dir + "/sphere-double.nvdb",
                           nanovdb::tools::createLevelSetSphere<double>(3.0, Vec3d(42.0, 39.0, 45.0), 1.0, 1.5));
    nanovdb::io::writeGrid(dir + "/sphere-fp8-skipped.nvdb",
                           nanovdb::tools::createLevelSetSphere<nanovdb::Fp8>(3.0, Vec3d(40.0), 1.0, 1.5));
    auto leafOnly =
        nanovdb::tools::createNanoGrid<nanovdb::NanoGrid<float>, nanovdb::ValueOnIndex>(*fgrid, 0u, false, false);
    nanovdb::io::writeGrid(dir + "/sphere-onindex.nvdb", leafOnly);
    nanovdb::io::writeGrid(
        dir + "/sphere-onindex-stats-tiles.nvdb",
        nanovdb::tools::createNanoGrid<nanovdb::NanoGrid<float>, nanovdb::ValueOnIndex>(*fgrid, 0u, true, true));
    // A fog ball of radius 10: its interior holds active 8^3 tiles in lower internal nodes.
    nanovdb::io::writeGrid(dir + "/fog-tiles.nvdb",
                           nanovdb::tools::createFogVolumeSphere<float>(10.0, Vec3d(40.0), 1.0, 1.5));
    nanovdb::io::writeGrid(dir + "/shell-onindex.nvdb", vbm::makeSphereShell(4.0, 2.0, nanovdb::Coord(100, 20, 30)));
    std::vector<nanovdb::GridHandle<nanovdb::HostBuffer>> two;
    two.push_back(nanovdb::tools::createLevelSetSphere<float>(2.0, Vec3d(20.0), 1.0, 1.0));
    two.push_back(vbm::makeSingleLeaf(nanovdb::Coord(64, 8, 16), 0.3, 7));
    nanovdb::io::writeGrids(dir + "/two-grids.nvdb", two);
    return 0;
}
