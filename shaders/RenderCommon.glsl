// SPDX-License-Identifier: Apache-2.0
// What the render passes share: the buffers of one descriptor set (VolumeRenderer.cpp binds them),
// the parameters, reading the sparse grids through PNanoVDB, the light volume and the obstacles.
//   0 grids, NanoVDB OnIndex: the field's (as the     5 coarse volume: per cell, mean extinction
//     solver holds it) at byte 0, the mesh obstacles'    and the largest value of the cell's voxels
//     band (render/ObstacleSurface.h) at counts.z     6 light volume: per cell, sun and sky transmittance
//   1 field channel 0 (density or temperature)         7 field range: ordered-uint min and max
//   2 field channel 1 (temperature, fire look)         8 parameters (RenderParams.h)
//   3 ray image (volume.comp writes, upscale reads)    9 the band's occupancy, one float per value
//   4 output image (upscale.comp writes)                 index (a dummy while there is no mesh)
// Both grids share binding 0 because PNanoVDB's GLSL reads one fixed array; a second array behind
// a switch made every lookup, the field's too, slower to compile on lavapipe.

#extension GL_EXT_control_flow_attributes : require // [[dont_unroll]]

layout(std430, binding = 0) readonly buffer GridBuffer { uint pnanovdb_buf_data[]; };
layout(std430, binding = 1) readonly buffer Field0 { float field0[]; };
layout(std430, binding = 2) readonly buffer Field1 { float field1[]; };
layout(std430, binding = 5) buffer CoarseVolume { vec2 coarse[]; };
layout(std430, binding = 6) buffer LightVolume { vec2 lightCells[]; };
layout(std430, binding = 7) buffer FieldRange { uint rangeBits[2]; };
layout(std430, binding = 9) readonly buffer MeshOccupancy { float meshOccupancy[]; };

#define PNANOVDB_GLSL
#include "PNanoVDB.h"
#include "RenderParams.h"

// The mesh obstacles are drawn only by the passes compiled with VBM_MESH_OBSTACLES (coarse and
// volume have both variants; RenderPipelines makes the mesh ones once a scene has some). Left
// out, their code is not in the SPIR-V at all: even dead, it cost a CPU device (lavapipe)
// seconds of compile time per inlined grid lookup.

bool boxInterval(vec3 o, vec3 d, vec3 lo, vec3 hi, out float t0, out float t1)
{
    const vec3 inv = 1.0 / d;
    const vec3 a = (lo - o) * inv, b = (hi - o) * inv;
    const vec3 tmin = min(a, b), tmax = max(a, b);
    t0 = max(max(tmin.x, tmin.y), tmin.z);
    t1 = min(min(tmax.x, tmax.y), tmax.z);
    return t1 > max(t0, 0.0);
}

// A read accessor of the grid at byteOffset in binding 0 (0: the field's; counts.z: the mesh band).
pnanovdb_readaccessor_t gridAccessor(uint byteOffset)
{
    pnanovdb_buf_t buf;
    buf.unused = 0u;
    pnanovdb_grid_handle_t grid;
    grid.address.byte_offset = byteOffset;
    const pnanovdb_root_handle_t root = pnanovdb_tree_get_root(buf, pnanovdb_grid_get_tree(buf, grid));
    pnanovdb_readaccessor_t acc;
    pnanovdb_readaccessor_init(acc, root);
    return acc;
}
pnanovdb_readaccessor_t gridAccessor() { return gridAccessor(0u); }
pnanovdb_readaccessor_t meshAccessor() { return gridAccessor(params.counts.z); }

// Value index of voxel ijk (0 outside the active set) in the accessor's grid, and the tree
// level the lookup ended at.
uint sampleIndex(inout pnanovdb_readaccessor_t acc, ivec3 ijk, out uint level)
{
    pnanovdb_buf_t buf;
    buf.unused = 0u;
    level = 0u;
    const pnanovdb_address_t address =
        pnanovdb_readaccessor_get_value_address_and_level(PNANOVDB_GRID_TYPE_ONINDEX, buf, acc, ijk, level);
    return pnanovdb_root_onindex_get_value_index(buf, address, ijk, level).x;
}

// A float's bits as a uint that orders like the float (for atomicMin/atomicMax), and back.
uint orderedBits(float v)
{
    const uint b = floatBitsToUint(v);
    return (b & 0x80000000u) != 0u ? ~b : (b | 0x80000000u);
}
float fromOrderedBits(uint u) { return uintBitsToFloat((u & 0x80000000u) != 0u ? (u & 0x7fffffffu) : ~u); }

// The colormap's ends: the field's own range (range.comp) or the fixed one.
vec2 colormapRange()
{
    if (params.range.z == 0.0 || rangeBits[0] > rangeBits[1]) return params.range.xy;
    return vec2(fromOrderedBits(rangeBits[0]), fromOrderedBits(rangeBits[1]));
}

uint lightCell(ivec3 c) { return (uint(c.z) * params.lightDims.y + uint(c.y)) * params.lightDims.x + uint(c.x); }

// Sun (x) and sky (y) transmittance at p (index space), trilinear between light cells; 1 where
// the light volume is off. Points outside it take the nearest cell (the caller moves points
// outside the grid's box onto it first).
vec2 lightAt(vec3 p)
{
    if (params.lightDims.w == 0u) return vec2(1.0);
    const ivec3 dims = ivec3(params.lightDims.xyz);
    const vec3 c = clamp((p - params.lightOrigin.xyz) / params.lightOrigin.w - 0.5, vec3(0.0), vec3(dims - 1));
    const ivec3 i0 = ivec3(floor(c));
    const ivec3 i1 = min(i0 + 1, dims - 1);
    const vec3 f = c - vec3(i0);
    const vec2 a = mix(lightCells[lightCell(ivec3(i0.x, i0.y, i0.z))], lightCells[lightCell(ivec3(i1.x, i0.y, i0.z))], f.x);
    const vec2 b = mix(lightCells[lightCell(ivec3(i0.x, i1.y, i0.z))], lightCells[lightCell(ivec3(i1.x, i1.y, i0.z))], f.x);
    const vec2 d = mix(lightCells[lightCell(ivec3(i0.x, i0.y, i1.z))], lightCells[lightCell(ivec3(i1.x, i0.y, i1.z))], f.x);
    const vec2 e = mix(lightCells[lightCell(ivec3(i0.x, i1.y, i1.z))], lightCells[lightCell(ivec3(i1.x, i1.y, i1.z))], f.x);
    return mix(mix(a, b, f.y), mix(d, e, f.y), f.z);
}

// The exit distance from the empty node (or coarse cell) of `size` voxels holding p, plus a nudge.
float skipTo(vec3 p, vec3 dir, vec3 origin, float size)
{
    const vec3 lo = origin + floor((p - origin) / size) * size;
    float a, b;
    boxInterval(p - 1e-3 * dir, dir, lo, lo + size, a, b);
    return max(b, 0.0) + 0.01;
}

#ifdef VBM_MESH_OBSTACLES
// The mesh obstacles' occupancy at p (render/ObstacleSurface.h: > 0 solid), trilinear between
// voxel centres: voxel ijk fills the cell [ijk, ijk + 1), as the field's voxels are drawn, so the
// zero crossing lies on the faces the solver puts its walls on. `level`: where the lookup of p's
// cell ended (non-zero: no leaf, so the whole empty node reads -0.5). Where p's cell is outside
// the band, no corner of the sample has a solid voxel within one voxel (the band reaches two),
// so it is -0.5 without reading them. One lookup site, in a loop that is not unrolled.
float meshAt(inout pnanovdb_readaccessor_t acc, vec3 p, out uint level)
{
    const vec3 q = p - 0.5, b = floor(q), f = q - b;
    float sum = 0.0;
    level = 0u;
    [[dont_unroll]] for (int k = -1; k < 8; ++k) { // -1: p's own cell; 0-7: the corners
        const ivec3 e = ivec3(k & 1, (k >> 1) & 1, k >> 2);
        uint l;
        const uint index = sampleIndex(acc, k < 0 ? ivec3(floor(p)) : ivec3(b) + e, l);
        if (k < 0) {
            level = l;
            if (index == 0u) return -0.5;
            continue;
        }
        const vec3 w = mix(1.0 - f, f, vec3(e));
        sum += w.x * w.y * w.z * meshOccupancy[index];
    }
    return sum;
}

// Where the ray o + t d (tMin < t < tMax) first enters the mesh obstacles, from outside
// (occupancy <= 0) to inside (> 0): marched at half a voxel through the band's box, empty nodes
// skipped, the crossing refined by bisection (tHit is its outer side, so shadow rays start off
// the surface); the normal is against the occupancy's gradient (central differences a voxel
// each way, so a staircase of voxels shades smoothly). A ray starting inside only hits where it
// enters again. One loop takes every sample (march, bisection, gradient) at one call site: each
// inlined grid lookup costs a CPU device (lavapipe) compile time and memory.
bool meshHit(vec3 o, vec3 d, float tMin, float tMax, out float tHit, out vec3 normal)
{
    float t0, t1;
    if (!boxInterval(o, d, params.meshMin.xyz, params.meshMax.xyz, t0, t1)) return false;
    t1 = min(t1, tMax);
    pnanovdb_readaccessor_t acc = meshAccessor();
    const int Bisections = 6;
    float t = max(t0, tMin), lo = t, last = 1.0;
    int refine = 0; // 0: marching; 1..Bisections: bisecting [lo, t]; then 6 gradient samples around t
    vec3 g = vec3(0.0);
    for (uint n = 0u; n < params.size.w; ++n) {
        const int k = refine - Bisections - 1; // gradient sample k: axis k / 2, sign by k % 2
        vec3 p = o + (refine >= 1 && refine <= Bisections ? 0.5 * (lo + t) : t) * d;
        if (k >= 0) p[k / 2] += (k % 2 == 0 ? 1.0 : -1.0);
        uint level;
        const float v = meshAt(acc, p, level);
        if (refine == 0) {
            if (level != 0u) { // no leaf: -0.5 through the whole empty node (8, 128 or 4096 voxels)
                last = -0.5, lo = t;
                t += skipTo(p, d, vec3(0.0), level == 1u ? 8.0 : (level == 2u ? 128.0 : 4096.0));
                if (t >= t1) break;
                continue;
            }
            if (v <= 0.0 || last > 0.0) {
                last = v, lo = t, t += 0.5;
                if (t >= t1) break;
                continue;
            }
            refine = 1; // a crossing in [lo, t]
        } else if (refine <= Bisections) {
            if (v > 0.0) t = 0.5 * (lo + t); else lo = 0.5 * (lo + t);
            ++refine;
        } else {
            g[k / 2] += k % 2 == 0 ? v : -v;
            if (++refine == Bisections + 7) break;
        }
    }
    if (refine == 0) return false;
    tHit = lo;
    normal = dot(g, g) > 0.0 ? -normalize(g) : -d;
    return true;
}

#endif

// Nearest hit of the ray o + t d (t > tMin) with an obstacle: a sphere or the mesh obstacles (from
// t = meshFrom on); false if none.
bool obstacleHit(vec3 o, vec3 d, float tMin, float meshFrom, out float tHit, out vec3 normal)
{
    tHit = 1e30;
    for (uint k = 0u; k < params.counts.x; ++k) {
        const vec4 s = params.obstacles[k];
        const vec3 oc = o - s.xyz;
        const float b = dot(oc, d), c = dot(oc, oc) - s.w * s.w, disc = b * b - c;
        if (disc < 0.0) continue;
        const float q = sqrt(disc);
        float t = -b - q;
        if (t <= tMin) t = -b + q;
        if (t > tMin && t < tHit) tHit = t, normal = normalize(oc + t * d);
    }
#ifdef VBM_MESH_OBSTACLES
    float tMesh;
    vec3 nMesh;
    if (meshHit(o, d, max(tMin, meshFrom), tHit, tMesh, nMesh)) tHit = tMesh, normal = nMesh;
#endif
    return tHit < 1e30;
}
