// Push constants of the volume shader, shared by GLSL (volume.comp) and C++ (render/): 128 bytes.
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
#define VBM_PARAMS_STRUCT layout(push_constant) uniform RenderParams
#endif

/// Rendering modes (size.z)
#define VBM_MODE_DENSITY 0u     // smoke: absorption with a lit, shadowed scattering colour
#define VBM_MODE_EMISSION 1u    // heat: emission through a perceptual colormap
#define VBM_MODE_BLOCKS 2u      // overlay: every active voxel coloured by its VBM block

VBM_PARAMS_STRUCT
{
    VBM_VEC4 eye;     // xyz: camera position (index space); w: slice plane position
    VBM_VEC4 forward; // xyz: view direction; w: slice plane axis (0, 1, 2; negative: no slice)
    VBM_VEC4 right;   // xyz: right, scaled by tan(fov/2) * aspect; w: log2 of the VBM block width
    VBM_VEC4 up;      // xyz: up, scaled by tan(fov/2)
    VBM_VEC4 boxMin;  // xyz: the grid's index bounding box (min corner); w: march step in voxels
    VBM_VEC4 boxMax;  // xyz: max corner (exclusive); w: density scale
    VBM_UVEC4 size;   // x, y: image size; z: mode; w: maximum march steps
    VBM_VEC4 range;   // x, y: field value mapped to the colormap's ends; zw: light direction (azimuth, elevation)
}
#ifdef __cplusplus
;
static_assert(sizeof(RenderParams) == 128, "push constants must stay 128 bytes");
} // namespace vbm::render
#else
params;
#endif

#endif
