// What the render passes share: the buffers of one descriptor set (VolumeRenderer.cpp binds them),
// the parameters, reading the sparse grid through PNanoVDB, and the light volume.
//   0 grid (NanoVDB OnIndex, as the solver holds it)   5 coarse volume: per cell, mean extinction
//   1 field channel 0 (density or temperature)            and the largest value of the cell's voxels
//   2 field channel 1 (temperature, fire look)         6 light volume: per cell, sun and sky transmittance
//   3 ray image (volume.comp writes, upscale reads)    7 field range: ordered-uint min and max
//   4 output image (upscale.comp writes)               8 parameters (RenderParams.h)

layout(std430, binding = 0) readonly buffer GridBuffer { uint pnanovdb_buf_data[]; };
layout(std430, binding = 1) readonly buffer Field0 { float field0[]; };
layout(std430, binding = 2) readonly buffer Field1 { float field1[]; };
layout(std430, binding = 5) buffer CoarseVolume { vec2 coarse[]; };
layout(std430, binding = 6) buffer LightVolume { vec2 lightCells[]; };
layout(std430, binding = 7) buffer FieldRange { uint rangeBits[2]; };

#define PNANOVDB_GLSL
#include "PNanoVDB.h"
#include "RenderParams.h"

bool boxInterval(vec3 o, vec3 d, vec3 lo, vec3 hi, out float t0, out float t1)
{
    const vec3 inv = 1.0 / d;
    const vec3 a = (lo - o) * inv, b = (hi - o) * inv;
    const vec3 tmin = min(a, b), tmax = max(a, b);
    t0 = max(max(tmin.x, tmin.y), tmin.z);
    t1 = min(min(tmax.x, tmax.y), tmax.z);
    return t1 > max(t0, 0.0);
}

pnanovdb_readaccessor_t gridAccessor()
{
    pnanovdb_buf_t buf;
    buf.unused = 0u;
    pnanovdb_grid_handle_t grid;
    grid.address.byte_offset = 0u;
    const pnanovdb_root_handle_t root = pnanovdb_tree_get_root(buf, pnanovdb_grid_get_tree(buf, grid));
    pnanovdb_readaccessor_t acc;
    pnanovdb_readaccessor_init(acc, root);
    return acc;
}

// Value index of voxel ijk (0 outside the active set), and the tree level the lookup ended at.
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

// Nearest hit of the ray o + t d (t > tMin) with an obstacle sphere; false if none.
bool obstacleHit(vec3 o, vec3 d, float tMin, out float tHit, out vec3 normal)
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
    return tHit < 1e30;
}
