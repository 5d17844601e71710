// SPDX-License-Identifier: Apache-2.0
// The field's range over its active voxels (value indices 1 .. count-1): each workgroup reduces a
// grid-stride share in shared memory and merges it with one atomicMin and one atomicMax on the
// ordered bits. The host fills rangeBits with (~0, 0) first. The colormap follows this range.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "RenderCommon.glsl"

layout(local_size_x = 256) in;

shared uint lo[256], hi[256];

void main()
{
    const uint lane = gl_LocalInvocationID.x;
    const uint count = params.image.w;
    uint a = 0xffffffffu, b = 0u;
    for (uint i = gl_GlobalInvocationID.x + 1u; i < count; i += gl_NumWorkGroups.x * 256u) {
        const uint u = orderedBits(field0[i]);
        a = min(a, u), b = max(b, u);
    }
    lo[lane] = a, hi[lane] = b;
    barrier();
    for (uint s = 128u; s > 0u; s >>= 1) {
        if (lane < s) lo[lane] = min(lo[lane], lo[lane + s]), hi[lane] = max(hi[lane], hi[lane + s]);
        barrier();
    }
    if (lane == 0u) {
        atomicMin(rangeBits[0], lo[0]);
        atomicMax(rangeBits[1], hi[0]);
    }
}
