// SPDX-License-Identifier: Apache-2.0
// The mesh statements of a scene (`remove mesh`, `emitter mesh`, `domain mesh`; Mesh.h reads
// and voxelizes): each line's voxels, found once, and the region's mesh voxel sets.
#pragma once

#include "scene/SceneText.h"

#include <map>

namespace vbm::scenetext {

using CoordList = std::vector<nanovdb::Coord>;

/// Each mesh line's voxels, by line.
using MeshVoxelLists = std::map<const Line*, CoordList>;

/// The voxels of a `... mesh FILE [fit L | scale S] [at X Y Z] [rotate AX AY AZ] [shell T]`
/// statement whose word k is "mesh"; FILE relative to baseDir. Every error names the line.
CoordList meshLineVoxels(const std::string& source, const Line& l, size_t k, const std::string& baseDir);

/// Voxelizes every `remove mesh` and `emitter mesh` line into `lists`, and sets region.solid
/// and region.emitting to their unions.
void collectMeshes(const std::string& source, const std::vector<const Line*>& removes,
                   const std::vector<const Line*>& fields, const std::string& baseDir, ActiveRegion& region,
                   MeshVoxelLists& lists);

/// Refuses a mesh line whose voxels span more than `domain` along an axis.
void checkMeshSizes(const std::string& source, const MeshVoxelLists& lists, const nanovdb::CoordBBox& domain);

} // namespace vbm::scenetext
