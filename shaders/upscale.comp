// SPDX-License-Identifier: Apache-2.0
// Half (or quarter) resolution with upscaling: the ray image, one ray per image.z x image.z output
// pixels, is filtered bilinearly into the output image.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "RenderCommon.glsl"

layout(local_size_x = 8, local_size_y = 8) in;
layout(std430, binding = 3) readonly buffer RayImage { uint rays[]; };
layout(std430, binding = 4) writeonly buffer OutImage { uint pixels[]; };

vec4 ray(ivec2 p)
{
    p = clamp(p, ivec2(0), ivec2(params.size.xy) - 1);
    return unpackUnorm4x8(rays[uint(p.y) * params.size.x + uint(p.x)]);
}

void main()
{
    const uvec2 px = gl_GlobalInvocationID.xy;
    if (px.x >= params.image.x || px.y >= params.image.y) return;
    const vec2 r = (vec2(px) + 0.5) / float(params.image.z) - 0.5;
    const ivec2 i = ivec2(floor(r));
    const vec2 f = r - vec2(i);
    const vec4 c = mix(mix(ray(i), ray(i + ivec2(1, 0)), f.x), mix(ray(i + ivec2(0, 1)), ray(i + ivec2(1, 1)), f.x), f.y);
    pixels[px.y * params.image.x + px.x] = packUnorm4x8(c);
}
