// SPDX-License-Identifier: Apache-2.0
// The light volume: for each coarse cell, the transmittance towards the sun and towards the sky
// (straight up), marched once per frame through the coarse volume's extinction, one cell per
// step. The ray march then reads it instead of tracing a shadow ray for every sample.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "RenderCommon.glsl"

layout(local_size_x = 4, local_size_y = 4, local_size_z = 4) in;

float opticalDepth(vec3 from, vec3 dir, ivec3 dims)
{
    // `from` and the step are in cells; the first half cell is the cell's own.
    float tau = 0.0;
    for (float s = 1.0; s < 4.0 * float(dims.x + dims.y + dims.z); s += 1.0) {
        const ivec3 c = ivec3(floor(from + s * dir));
        if (any(lessThan(c, ivec3(0))) || any(greaterThanEqual(c, dims))) break;
        tau += coarse[lightCell(c)].x;
        if (tau * params.lightOrigin.w > 12.0) break; // transmittance below 1e-5
    }
    return tau * params.lightOrigin.w;
}

void main()
{
    const uvec3 cell = gl_GlobalInvocationID;
    if (any(greaterThanEqual(cell, params.lightDims.xyz))) return;
    const ivec3 dims = ivec3(params.lightDims.xyz);
    const vec3 centre = vec3(cell) + 0.5;
    const float self = 0.5 * coarse[lightCell(ivec3(cell))].x * params.lightOrigin.w;
    const float sun = opticalDepth(centre, params.sun.xyz, dims) + self;
    const float sky = opticalDepth(centre, vec3(0.0, 1.0, 0.0), dims) + self;
    lightCells[lightCell(ivec3(cell))] = vec2(exp(-sun), exp(-sky));
}
