// SPDX-License-Identifier: Apache-2.0
// Volume ray marching straight from the sparse grid through PNanoVDB, one ray per thread, into the
// ray image. Empty space is skipped a node at a time (where the accessor finds no leaf, the ray
// jumps to the exit of the empty node: 8, 128 or 4096 voxels wide) and, in the lit looks, a coarse
// cell at a time where the coarse volume says every voxel of the cell is empty. Smoke scatters
// the sun (Henyey-Greenstein phase, transmittance from the light volume) and the sky; fire adds
// blackbody emission from the temperature; the obstacles and the ground are lit surfaces that
// end the march. The result is tone mapped (ACES fit) and gamma encoded.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "RenderCommon.glsl"

layout(local_size_x = 8, local_size_y = 8) in;
layout(std430, binding = 3) writeonly buffer RayImage { uint rays[]; };

const float PI = 3.14159265;

// A perceptual colormap (magma-like): black through purple and orange to pale yellow.
vec3 colormap(float t)
{
    t = clamp(t, 0.0, 1.0);
    const vec3 c0 = vec3(0.001, 0.000, 0.014), c1 = vec3(0.33, 0.07, 0.43), c2 = vec3(0.80, 0.22, 0.33);
    const vec3 c3 = vec3(0.99, 0.57, 0.21), c4 = vec3(0.99, 0.99, 0.75);
    vec3 c = t < 0.25 ? mix(c0, c1, t / 0.25)
           : t < 0.5  ? mix(c1, c2, (t - 0.25) / 0.25)
           : t < 0.75 ? mix(c2, c3, (t - 0.5) / 0.25)
                      : mix(c3, c4, (t - 0.75) / 0.25);
    return pow(c, vec3(2.2)) * 1.6; // display colours to linear radiance, so they survive the tone map
}

// A distinct colour per VBM block: blocks of 2^log2Width consecutive value indices from 1.
vec3 blockColour(uint index, uint log2Width)
{
    uint h = ((index - 1u) >> log2Width) * 2654435761u;
    h ^= h >> 15;
    return vec3(float(h & 255u), float((h >> 8) & 255u), float((h >> 16) & 255u)) / 255.0 * 0.8 + 0.2;
}

// Planck's law at three wavelengths (red 610, green 550, blue 465 nm), relative to green at 1500 K.
vec3 blackbody(float kelvin)
{
    const vec3 lambda = vec3(0.610, 0.550, 0.465); // micrometres
    const float c2 = 14388.0;                      // second radiation constant, micrometre-kelvin
    const vec3 planck = 1.0 / (pow(lambda, vec3(5.0)) * (exp(c2 / (lambda * max(kelvin, 300.0))) - 1.0));
    return planck * (pow(0.55, 5.0) * (exp(c2 / (0.55 * 1500.0)) - 1.0));
}

// Henyey-Greenstein, scaled so an isotropic medium (g = 0) gives 1.
float phase(float cosTheta, float g)
{
    const float d = 1.0 + g * g - 2.0 * g * cosTheta;
    return (1.0 - g * g) / (d * sqrt(d));
}

vec3 sunColour() { return vec3(1.0, 0.95, 0.86) * params.sun.w; }
vec3 skyColour() { return vec3(0.45, 0.55, 0.75) * params.shading.z; }

vec3 background(float v) { return mix(vec3(0.018, 0.022, 0.03), vec3(0.09, 0.11, 0.15), v); }

// Sun and sky transmittance at a point that may lie outside the grid's box: outside, nothing
// absorbs until the ray towards the light enters the box, so that entry point's value holds.
vec2 lightFrom(vec3 p)
{
    const vec3 lo = params.boxMin.xyz, hi = params.boxMax.xyz;
    if (all(greaterThanEqual(p, lo)) && all(lessThan(p, hi))) return lightAt(p);
    float a, b;
    const float sun = boxInterval(p, params.sun.xyz, lo, hi, a, b) ? lightAt(p + (max(a, 0.0) + 0.5) * params.sun.xyz).x : 1.0;
    const float sky = boxInterval(p, vec3(0.0, 1.0, 0.0), lo, hi, a, b) ? lightAt(p + vec3(0.0, max(a, 0.0) + 0.5, 0.0)).y : 1.0;
    return vec2(sun, sky);
}

// A lit surface point: Lambert from the sun (times `sunlit`, 0 where an obstacle blocks it, and
// the smoke's transmittance through the light volume, read `lift` voxels off the surface) and
// the sky.
vec3 shadeSurface(vec3 p, vec3 n, vec3 albedo, float sunlit, float lift)
{
    const vec2 light = lightFrom(p + lift * n);
    const float direct = max(dot(n, params.sun.xyz), 0.0) * light.x * sunlit;
    return albedo * (sunColour() * direct + skyColour() * light.y * (0.6 + 0.4 * n.y));
}

// The ground disc's hit along the ray, if nearer than tHit: its distance, normal, albedo and
// fade (it fades out towards the disc's edge).
void groundHit(vec3 eye, vec3 dir, inout float tHit, inout vec3 n, inout vec3 albedo, inout float fade)
{
    const float ground = params.range.w;
    if (params.up.w == 0.0 || dir.y >= -1e-6 || eye.y <= ground) return;
    const float tg = (ground - eye.y) / dir.y;
    const vec3 centre = 0.5 * (params.boxMin.xyz + params.boxMax.xyz);
    const float extent = length(params.boxMax.xyz - params.boxMin.xyz);
    const vec3 p = eye + tg * dir;
    const float r = length(p.xz - centre.xz) / (2.5 * extent);
    if (tg >= tHit || r >= 1.0) return;
    // a checkerboard of tiles about a twelfth of the box
    const float tile = exp2(round(log2(max(extent / 12.0, 1.0))));
    const ivec2 t = ivec2(floor(p.xz / tile));
    albedo = ((t.x + t.y) & 1) == 0 ? vec3(0.11) : vec3(0.08);
    fade = smoothstep(1.0, 0.6, r);
    tHit = tg, n = vec3(0.0, 1.0, 0.0);
}

// The nearest surface along the ray (an obstacle, or the ground within its disc), shaded; t = 1e30
// if none. One obstacleHit call site serves the eye's ray and then the shadow ray towards the
// sun (a loop that is not unrolled): each inlined mesh march costs a CPU device (lavapipe)
// seconds of compile time. An obstacle reads the light volume a cell and a half off its surface,
// clear of the opaque cells inside it, and its shadow ray passes over its own voxel steps (the
// mesh march starts two voxels out), which would otherwise speckle it with their shadows.
float surface(vec3 eye, vec3 dir, out vec3 colour)
{
    float tHit = 1e30, fade = 1.0, sunlit = 1.0, lift = max(0.5, 1.5 * params.lightOrigin.w);
    vec3 n = vec3(0.0, 1.0, 0.0), albedo = vec3(0.55, 0.56, 0.6);
    vec3 o = eye, d = dir;
    [[dont_unroll]] for (int shadow = 0; shadow < 2; ++shadow) {
        float t;
        vec3 normal;
        const bool hit = obstacleHit(o, d, 0.0, shadow == 0 ? 0.0 : 2.0, t, normal);
        if (shadow == 1) {
            sunlit = hit ? 0.0 : 1.0;
            break;
        }
        if (hit) tHit = t, n = normal;
        const float tObstacle = tHit;
        groundHit(eye, dir, tHit, n, albedo, fade);
        if (tHit == 1e30) break;
        if (tHit != tObstacle) lift = 0.5;
        o = eye + tHit * dir + 0.05 * n, d = params.sun.xyz;
    }
    colour = vec3(0.0);
    if (tHit < 1e30) colour = mix(background(0.0), shadeSurface(eye + tHit * dir, n, albedo, sunlit, lift), fade);
    return tHit;
}

// Light scattered towards the eye per unit extinction at p.
vec3 inScattered(vec3 p, vec3 dir)
{
    const vec2 light = lightAt(p);
    return params.shading.w * (sunColour() * light.x * phase(dot(dir, params.sun.xyz), params.shading.x) +
                               skyColour() * light.y);
}

void main()
{
    const uvec2 px = gl_GlobalInvocationID.xy;
    if (px.x >= params.size.x || px.y >= params.size.y) return;
    const vec2 ndc = vec2(2.0 * (float(px.x) + 0.5) / float(params.size.x) - 1.0,
                          1.0 - 2.0 * (float(px.y) + 0.5) / float(params.size.y));
    const vec3 eye = params.eye.xyz;
    const vec3 dir = normalize(params.forward.xyz + ndc.x * params.right.xyz + ndc.y * params.up.xyz);
    const uint mode = params.size.z;
    const bool lit = mode == VBM_MODE_DENSITY || mode == VBM_MODE_FIRE;

    vec3 surfaceColour;
    const float tSurface = surface(eye, dir, surfaceColour);
    vec3 colour = vec3(0.0);
    float transmittance = 1.0;
    float t0, t1;
    if (boxInterval(eye, dir, params.boxMin.xyz, params.boxMax.xyz, t0, t1)) {
        t1 = min(t1, tSurface);
        pnanovdb_readaccessor_t acc = gridAccessor();
        const float step = params.boxMin.w, scale = params.boxMax.w;
        const vec2 range = colormapRange();
        const float span = max(range.y - range.x, 1e-20);
        // The slice plane, if any: where the ray crosses it, an opaque colormapped sample of the field.
        const int axis = int(params.forward.w);
        float tSlice = -1.0;
        if (axis >= 0 && abs(dir[axis]) > 1e-6) tSlice = (params.eye.w + 0.5 - eye[axis]) / dir[axis];
        float t = max(t0, 0.0) + 0.5 * step;
        for (uint n = 0u; n < params.size.w && t < t1 && transmittance > 0.005; ++n) {
            if (tSlice > 0.0 && t >= tSlice) {
                uint sl;
                const uint si = sampleIndex(acc, ivec3(floor(eye + tSlice * dir)), sl);
                if (si != 0u) {
                    colour += transmittance * 0.9 * colormap((field0[si] - range.x) / span);
                    transmittance *= 0.1;
                }
                tSlice = -1.0;
            }
            const vec3 p = eye + t * dir;
            if (lit && params.lightDims.w != 0u) {
                const ivec3 c = ivec3(floor((p - params.lightOrigin.xyz) / params.lightOrigin.w));
                if (all(greaterThanEqual(c, ivec3(0))) && all(lessThan(c, ivec3(params.lightDims.xyz))) &&
                    coarse[lightCell(c)].y <= 0.0) {
                    t += skipTo(p, dir, params.lightOrigin.xyz, params.lightOrigin.w);
                    continue;
                }
            }
            uint level;
            const uint index = sampleIndex(acc, ivec3(floor(p)), level);
            if (level != 0u) { // no leaf here: jump past the empty node (lower: 8^3, upper: 128^3, root tile: 4096^3)
                t += skipTo(p, dir, vec3(0.0), level == 1u ? 8.0 : (level == 2u ? 128.0 : 4096.0));
                continue;
            }
            if (index != 0u) {
                const float v = field0[index];
                if (mode == VBM_MODE_BLOCKS) {
                    const float alpha = 1.0 - exp(-0.35 * step);
                    colour += transmittance * alpha * blockColour(index, uint(params.right.w));
                    transmittance *= 1.0 - alpha;
                } else if (mode == VBM_MODE_EMISSION) {
                    // the further from the field's rest value (0, or the range's nearest end) the
                    // more opaque: heat spreading into a cold shell shows, the cold shell does not hide it
                    const float u = (v - range.x) / span, rest = clamp(-range.x / span, 0.0, 1.0);
                    const float alpha = 1.0 - exp(-scale * step * (0.03 + abs(u - rest)));
                    colour += transmittance * alpha * colormap(u);
                    transmittance *= 1.0 - alpha;
                } else {
                    const float sigma = max(v, 0.0) * scale;
                    const float alpha = 1.0 - exp(-sigma * step);
                    if (sigma > 0.0) colour += transmittance * alpha * inScattered(p, dir);
                    if (mode == VBM_MODE_FIRE) {
                        const float kelvin = min(params.fire.y + params.fire.z * field1[index], params.fire.w);
                        colour += transmittance * step * params.fire.x * blackbody(kelvin);
                    }
                    transmittance *= 1.0 - alpha;
                }
            }
            t += step;
        }
    }
    const vec3 behind = tSurface < 1e30 ? surfaceColour : background(float(px.y) / float(params.size.y));
    colour += transmittance * behind;
    const vec3 x = colour * params.shading.y;
    const vec3 mapped = clamp(x * (2.51 * x + 0.03) / (x * (2.43 * x + 0.59) + 0.14), 0.0, 1.0);
    rays[px.y * params.size.x + px.x] = packUnorm4x8(vec4(pow(mapped, vec3(1.0 / 2.2)), 1.0));
}
