// SPDX-License-Identifier: Apache-2.0
// The statements of adaptive scenes (see OpenDomain.h).
#include "scene/OpenDomain.h"

#include "domain/ActiveSet.h"
#include "domain/ActiveSetRebuild.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace vbm::scenetext {

/// The obstacles (`remove sphere`) and emitters (`emitter sphere`) as balls; `density sphere`
/// balls go to `smoke` (an open domain's first set holds them too).
void collectBalls(const std::string& source, const std::vector<const Line*>& removes,
                  const std::vector<const Line*>& fields, ActiveRegion& region, std::vector<Ball>& smoke)
{
    for (const Line* r : removes) {
        if (r->words.size() >= 2 && r->words[1] == "mesh") continue; // collectMeshes' (SceneMeshes.h)
        if (r->words.size() < 2 || r->words[1] != "sphere")
            fail(source, r->number, "write 'remove sphere CX CY CZ R' or 'remove mesh FILE [options]'");
        expectCount(source, *r, 6);
        const Sphere s = sphereOf(source, *r, 2);
        region.obstacles.push_back({s[0], s[1], s[2], s[3]});
    }
    for (const Line* l : fields) {
        const bool emitter = l->words[0] == "emitter" && l->words.size() == 6;
        const bool density = l->words[0] == "density" && l->words.size() == 7;
        if (!(emitter || density) || l->words[1] != "sphere") continue;
        const Sphere s = sphereOf(source, *l, 2);
        if (s[3] > 800) fail(source, l->number, "the ball's radius must be at most 800 (2^31 voxels)");
        (emitter ? region.emitters : smoke).push_back({s[0], s[1], s[2], s[3]});
    }
}

/// `adapt every K margin M threshold T`.
Adaptation readAdapt(const std::string& source, const Line& l)
{
    const bool speed = l.words.size() == 9;
    if (!speed) expectCount(source, l, 7);
    if (l.words[1] != "every" || l.words[3] != "margin" || l.words[5] != "threshold" ||
        (speed && l.words[7] != "speed"))
        fail(source, l.number, "write 'adapt every K margin M threshold T' (and optionally 'speed S')");
    const double k = number(source, l, 2), m = number(source, l, 4), t = number(source, l, 6);
    if (k < 1 || k > 1e6 || k != std::floor(k))
        fail(source, l.number, "adapt every K: K must be a whole number from 1");
    if (m < MinAdaptMargin || m > 1000 || m != std::floor(m))
        fail(source, l.number,
             "adapt margin M: M must be a whole number from " + std::to_string(MinAdaptMargin) +
                 " (the trilinear sample's reach and the air layer) to 1000");
    if (t < 0) fail(source, l.number, "adapt threshold T must be 0 or more");
    Adaptation a{int(k), int(m), t};
    if (speed) {
        a.speedThreshold = number(source, l, 8);
        if (a.speedThreshold < 0) fail(source, l.number, "adapt speed S must be 0 or more");
    }
    return a;
}

namespace {

/// `domain open X0 Y0 Z0 X1 Y1 Z1`: the box X0 <= x < X1, and so on (inclusive bounds here);
/// `domain open` alone: the whole safe index range, so no wall is ever met.
nanovdb::CoordBBox openBox(const std::string& source, const Line& d)
{
    if (d.words.size() == 2) return {nanovdb::Coord(-MaxOpenCoord), nanovdb::Coord(MaxOpenCoord - 1)};
    if (d.words.size() != 8)
        fail(source, d.number,
             "write 'domain open' (unbounded air) or 'domain open X0 Y0 Z0 X1 Y1 Z1' (a box), got " +
                 std::to_string(d.words.size() - 2) + " values");
    double b[6];
    for (int k = 0; k < 6; ++k) {
        b[k] = coordinate(source, d, 2 + k);
        if (b[k] != std::floor(b[k])) fail(source, d.number, "the open box's bounds must be whole numbers");
    }
    for (int a = 0; a < 3; ++a)
        if (!(b[a + 3] > b[a])) fail(source, d.number, std::string("the open box is empty along ") + "xyz"[a]);
    return {nanovdb::Coord(int(b[0]), int(b[1]), int(b[2])),
            nanovdb::Coord(int(b[3]) - 1, int(b[4]) - 1, int(b[5]) - 1)};
}

} // namespace

/// An open domain's first topology: its emitters and initial smoke balls dilated by the margin,
/// within the box.
HostGridHandle openDomain(const std::string& source, const Line& d, const Line* floor, Scene& scene,
                          const std::vector<Ball>& smoke)
{
    scene.region.box = openBox(source, d);
    if (floor) {
        expectCount(source, *floor, 2);
        const double y = coordinate(source, *floor, 1);
        if (y != std::floor(y)) fail(source, floor->number, "floor Y: Y must be a whole number");
        if (y > scene.region.box.max()[1])
            fail(source, floor->number, "floor Y: Y lies above the open box's top");
        scene.region.box.min()[1] = std::max(scene.region.box.min()[1], int(y));
    }
    std::vector<nanovdb::Coord> seeds = solver::emitterVoxels(scene.region);
    ActiveRegion balls = solver::copyOf(scene.region);
    balls.emitters = smoke;
    for (const nanovdb::Coord& c : solver::emitterVoxels(balls))
        seeds.push_back(c);
    if (seeds.empty())
        fail(source, d.number, "no emitter or density voxel lies inside the open box (and out of the obstacles)");
    try {
        // the margin of a rebuild from the initial air, still or the wind everywhere: the
        // first steps' acceleration is covered too
        const double windMax = std::max({std::fabs(scene.wind[0]), std::fabs(scene.wind[1]), std::fabs(scene.wind[2])});
        return solver::activeSetOnHost(seeds, solver::rebuildMargin(scene.adapt, windMax, scene.params), scene.region);
    } catch (const std::runtime_error& e) {
        fail(source, d.number, e.what());
    }
}

} // namespace vbm::scenetext
