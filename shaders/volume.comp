// Volume ray marching straight from the sparse grid: the NanoVDB OnIndex grid and one float
// field (indexed by value index) as storage buffers, read through PNanoVDB. Empty space is
// skipped a node at a time: where the accessor finds no leaf, the ray jumps to the exit of the
// empty node (8, 128 or 4096 voxels wide).
#version 450
#extension GL_GOOGLE_include_directive : require

layout(local_size_x = 8, local_size_y = 8) in;

layout(std430, binding = 0) readonly buffer GridBuffer { uint pnanovdb_buf_data[]; };
layout(std430, binding = 1) readonly buffer FieldBuffer { float field[]; };
layout(std430, binding = 2) writeonly buffer ImageBuffer { uint pixels[]; };

#define PNANOVDB_GLSL
#include "PNanoVDB.h"
#include "RenderParams.h"

// A perceptual colormap (magma-like): black through purple and orange to pale yellow.
vec3 colormap(float t)
{
    t = clamp(t, 0.0, 1.0);
    const vec3 c0 = vec3(0.001, 0.000, 0.014), c1 = vec3(0.33, 0.07, 0.43), c2 = vec3(0.80, 0.22, 0.33);
    const vec3 c3 = vec3(0.99, 0.57, 0.21), c4 = vec3(0.99, 0.99, 0.75);
    if (t < 0.25) return mix(c0, c1, t / 0.25);
    if (t < 0.5) return mix(c1, c2, (t - 0.25) / 0.25);
    if (t < 0.75) return mix(c2, c3, (t - 0.5) / 0.25);
    return mix(c3, c4, (t - 0.75) / 0.25);
}

bool boxInterval(vec3 o, vec3 d, vec3 lo, vec3 hi, out float t0, out float t1)
{
    const vec3 inv = 1.0 / d;
    const vec3 a = (lo - o) * inv, b = (hi - o) * inv;
    const vec3 tmin = min(a, b), tmax = max(a, b);
    t0 = max(max(tmin.x, tmin.y), tmin.z);
    t1 = min(min(tmax.x, tmax.y), tmax.z);
    return t1 > max(t0, 0.0);
}

// Value index of voxel ijk (0 outside the active set), and the tree level the lookup ended at.
uint sampleIndex(inout pnanovdb_readaccessor_t acc, pnanovdb_buf_t buf, ivec3 ijk, out uint level)
{
    level = 0u;
    const pnanovdb_address_t address =
        pnanovdb_readaccessor_get_value_address_and_level(PNANOVDB_GRID_TYPE_ONINDEX, buf, acc, ijk, level);
    return pnanovdb_root_onindex_get_value_index(buf, address, ijk, level).x;
}

float sampleField(inout pnanovdb_readaccessor_t acc, pnanovdb_buf_t buf, ivec3 ijk, out uint level)
{
    const uint index = sampleIndex(acc, buf, ijk, level);
    return index == 0u ? 0.0 : field[index];
}

// A distinct colour per VBM block: blocks of 2^log2Width consecutive value indices from 1.
vec3 blockColour(uint index, uint log2Width)
{
    uint h = ((index - 1u) >> log2Width) * 2654435761u;
    h ^= h >> 15;
    return vec3(float(h & 255u), float((h >> 8) & 255u), float((h >> 16) & 255u)) / 255.0 * 0.8 + 0.2;
}

// Transmittance from p towards the light, a few coarse steps (the shadow term).
float shadow(inout pnanovdb_readaccessor_t acc, pnanovdb_buf_t buf, vec3 p, vec3 light)
{
    float tau = 0.0;
    for (int s = 1; s <= 12; ++s) {
        uint level;
        tau += max(sampleField(acc, buf, ivec3(floor(p + light * (2.0 * float(s)))), level), 0.0);
    }
    return exp(-tau * params.boxMax.w * 2.0);
}

void main()
{
    const uvec2 px = gl_GlobalInvocationID.xy;
    if (px.x >= params.size.x || px.y >= params.size.y) return;
    const vec2 ndc = vec2(2.0 * (float(px.x) + 0.5) / float(params.size.x) - 1.0,
                          1.0 - 2.0 * (float(px.y) + 0.5) / float(params.size.y));
    const vec3 eye = params.eye.xyz;
    const vec3 dir = normalize(params.forward.xyz + ndc.x * params.right.xyz + ndc.y * params.up.xyz);
    const vec3 background = mix(vec3(0.10, 0.11, 0.13), vec3(0.22, 0.24, 0.28), float(px.y) / float(params.size.y));

    vec3 colour = vec3(0.0);
    float transmittance = 1.0;
    float t0, t1;
    if (boxInterval(eye, dir, params.boxMin.xyz, params.boxMax.xyz, t0, t1)) {
        pnanovdb_buf_t buf;
        buf.unused = 0u;
        pnanovdb_grid_handle_t grid;
        grid.address.byte_offset = 0u;
        const pnanovdb_root_handle_t root = pnanovdb_tree_get_root(buf, pnanovdb_grid_get_tree(buf, grid));
        pnanovdb_readaccessor_t acc;
        pnanovdb_readaccessor_init(acc, root);
        const float step = params.boxMin.w, scale = params.boxMax.w;
        const vec3 light = normalize(vec3(cos(params.range.w) * cos(params.range.z), sin(params.range.w),
                                          cos(params.range.w) * sin(params.range.z)));
        // The slice plane, if any: where the ray crosses it, an opaque colormapped sample of the field.
        const int axis = int(params.forward.w);
        float tSlice = -1.0;
        if (axis >= 0 && abs(dir[axis]) > 1e-6) tSlice = (params.eye.w + 0.5 - eye[axis]) / dir[axis];
        float t = max(t0, 0.0) + 0.5 * step;
        for (uint n = 0u; n < params.size.w && t < t1 && transmittance > 0.01; ++n) {
            if (tSlice > 0.0 && t >= tSlice) {
                uint sl;
                const uint si = sampleIndex(acc, buf, ivec3(floor(eye + tSlice * dir)), sl);
                if (si != 0u) {
                    const float u = (field[si] - params.range.x) / max(params.range.y - params.range.x, 1e-20);
                    colour += transmittance * 0.9 * colormap(u);
                    transmittance *= 0.1;
                }
                tSlice = -1.0;
            }
            const vec3 p = eye + t * dir;
            uint level;
            const uint index = sampleIndex(acc, buf, ivec3(floor(p)), level);
            const float v = index == 0u ? 0.0 : field[index];
            if (level != 0u) {
                // no leaf here: jump past the empty node (lower: 8^3, upper: 128^3, root tile: 4096^3)
                const float dim = level == 1u ? 8.0 : (level == 2u ? 128.0 : 4096.0);
                const vec3 lo = floor(p / dim) * dim;
                float a, b;
                boxInterval(p - 1e-3 * dir, dir, lo, lo + dim, a, b);
                t += max(b, 0.0) + 0.01;
                continue;
            }
            if (params.size.z == VBM_MODE_BLOCKS) {
                if (index != 0u) {
                    const float alpha = 1.0 - exp(-0.35 * step);
                    colour += transmittance * alpha * blockColour(index, uint(params.right.w));
                    transmittance *= 1.0 - alpha;
                }
            } else if (params.size.z == VBM_MODE_DENSITY) {
                const float sigma = max(v, 0.0) * scale;
                if (sigma > 0.0) {
                    const float alpha = 1.0 - exp(-sigma * step);
                    const vec3 lit = vec3(0.95, 0.93, 0.9) * (0.25 + 0.75 * shadow(acc, buf, p, light));
                    colour += transmittance * alpha * lit;
                    transmittance *= 1.0 - alpha;
                }
            } else {
                const float u = (v - params.range.x) / max(params.range.y - params.range.x, 1e-20);
                const float alpha = 1.0 - exp(-scale * step * (0.05 + abs(u - 0.5)));
                colour += transmittance * alpha * colormap(u);
                transmittance *= 1.0 - alpha;
            }
            t += step;
        }
    }
    colour += transmittance * background;
    pixels[px.y * params.size.x + px.x] = packUnorm4x8(vec4(colour, 1.0));
}
