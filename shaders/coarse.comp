// SPDX-License-Identifier: Apache-2.0
// The coarse volume over the grid's box, one cell of lightOrigin.w^3 voxels per thread: the mean
// extinction of the cell's voxels (what the light pass attenuates by; a cell whose centre is
// inside an obstacle, sphere or mesh, is opaque) and the largest value any of them holds (the
// ray march skips cells where it is 0).
// Density and fire looks only. Cells of more than 4^3 voxels read 4^3 of them, spread evenly,
// for the mean; the largest value always reads every voxel, or a skip could miss smoke.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "RenderCommon.glsl"

layout(local_size_x = 4, local_size_y = 4, local_size_z = 4) in;

float visible(uint index)
{
    if (index == 0u) return 0.0;
    float v = max(field0[index], 0.0);
    if (params.size.z == VBM_MODE_FIRE) v = max(v, field1[index]); // hot gas glows without smoke
    return v;
}

void main()
{
    const uvec3 cell = gl_GlobalInvocationID;
    if (any(greaterThanEqual(cell, params.lightDims.xyz))) return;
    const int n = int(params.lightOrigin.w);
    const ivec3 lo = ivec3(params.lightOrigin.xyz) + ivec3(cell) * n;
    pnanovdb_readaccessor_t acc = gridAccessor();
    const int stride = max(n / 4, 1);
    float sum = 0.0, largest = 0.0;
    for (int k = 0; k < n; ++k)
        for (int j = 0; j < n; ++j)
            for (int i = 0; i < n; ++i) {
                uint level;
                const uint index = sampleIndex(acc, lo + ivec3(i, j, k), level);
                if (level != 0u && index == 0u) { // no leaf: the rest of this row is empty for 8 voxels at least
                    i += 7 - ((lo.x + i) & 7);
                    continue;
                }
                largest = max(largest, visible(index));
                if (index != 0u && i % stride == 0 && j % stride == 0 && k % stride == 0)
                    sum += max(field0[index], 0.0);
            }
    const int perAxis = (n + stride - 1) / stride;
    const int samples = perAxis * perAxis * perAxis;
    float extinction = sum / float(samples) * params.boxMax.w;
    const vec3 centre = vec3(lo) + 0.5 * float(n);
    for (uint k = 0u; k < params.counts.x; ++k)
        if (distance(centre, params.obstacles[k].xyz) < params.obstacles[k].w) extinction = 1e3;
#ifdef VBM_MESH_OBSTACLES
    pnanovdb_readaccessor_t mesh = meshAccessor();
    uint level;
    if (meshAt(mesh, centre, level) > 0.0) extinction = 1e3;
#endif
    coarse[lightCell(ivec3(cell))] = vec2(extinction, largest);
}
