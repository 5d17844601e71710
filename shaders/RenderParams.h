// SPDX-License-Identifier: Apache-2.0
// The renderer's per-frame parameters, one uniform buffer (std140) shared by GLSL (the passes in
// shaders/) and C++ (render/VolumeRenderer). Every member is a 16-byte vector, so the C++ layout
// and std140's agree without padding rules.
#ifndef VBM_RENDER_PARAMS_H
#define VBM_RENDER_PARAMS_H

#ifdef __cplusplus
#include <cstdint>
namespace vbm::render {
struct alignas(16) Vec4 {
    float x, y, z, w;
};
struct alignas(16) UVec4 {
    uint32_t x, y, z, w;
};
#define VBM_VEC4 Vec4
#define VBM_UVEC4 UVec4
#define VBM_PARAMS_STRUCT struct RenderParams
#else
#define VBM_VEC4 vec4
#define VBM_UVEC4 uvec4
#define VBM_PARAMS_STRUCT layout(std140, binding = 8) uniform RenderParams
#endif

/// Rendering modes (size.z)
#define VBM_MODE_DENSITY 0u  // smoke: single scattering from the sun and the sky, shadowed
#define VBM_MODE_EMISSION 1u // heat: emission through a perceptual colormap
#define VBM_MODE_BLOCKS 2u   // overlay: every active voxel coloured by its VBM block
#define VBM_MODE_FIRE 3u     // smoke lit as in DENSITY, plus blackbody emission from the temperature

#define VBM_MAX_OBSTACLES 8

VBM_PARAMS_STRUCT
{
    VBM_VEC4 eye;         // xyz: camera position (index space); w: slice plane position
    VBM_VEC4 forward;     // xyz: view direction; w: slice plane axis (0, 1, 2; negative: no slice)
    VBM_VEC4 right;       // xyz: right, scaled by tan(fov/2) * aspect; w: log2 of the VBM block width
    VBM_VEC4 up;          // xyz: up, scaled by tan(fov/2); w: 1 when the ground plane is drawn
    VBM_VEC4 boxMin;      // xyz: the grid's index bounding box (min corner); w: march step in voxels
    VBM_VEC4 boxMax;      // xyz: max corner (exclusive); w: extinction per unit density per voxel
    VBM_UVEC4 size;       // x, y: ray image size; z: mode; w: maximum march steps
    VBM_UVEC4 image;      // x, y: output image size; z: output pixels per ray along x and y; w: value count
    VBM_VEC4 range;       // x, y: fixed colormap ends; z: 1 when the range follows the field; w: ground height (y)
    VBM_VEC4 sun;         // xyz: unit direction towards the sun; w: its intensity
    VBM_VEC4 lightOrigin; // xyz: the light volume's min corner (index space); w: its cell size in voxels
    VBM_UVEC4 lightDims;  // xyz: light volume cells; w: 1 when the light volume is in use
    VBM_VEC4 shading;     // x: Henyey-Greenstein g; y: exposure; z: sky intensity; w: single-scattering albedo
    VBM_VEC4 fire;        // x: emission strength; y: kelvin at temperature 0; z: kelvin per unit temperature; w: the most kelvin
    VBM_UVEC4 counts;     // x: obstacle spheres; z: the mesh obstacles' band grid's byte offset in binding 0
    VBM_VEC4 meshMin;     // xyz: the mesh obstacles' band box, min corner (index space; mesh passes only)
    VBM_VEC4 meshMax;     // xyz: its max corner (exclusive)
    VBM_VEC4 obstacles[VBM_MAX_OBSTACLES]; // xyz: centre; w: radius (voxels)
}
#ifdef __cplusplus
;
static_assert(sizeof(RenderParams) == 25 * 16, "std140: 25 vectors of 16 bytes");
} // namespace vbm::render
#else
params;
#endif

#endif
