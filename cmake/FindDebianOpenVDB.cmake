# SPDX-License-Identifier: Apache-2.0
# Finds OpenVDB 10 as Debian's libopenvdb-dev ships it (with TBB, Imath and Boost's headers) and
# defines the target vbm::openvdb. Required: the solver voxelizes meshes with it; vbm-bench --cpu's
# peers and vbm-fluid's .vdb export use it too (scripts/setup.sh installs it).
find_path(VBM_OPENVDB_INCLUDE_DIR openvdb/openvdb.h)
find_path(VBM_BOOST_INCLUDE_DIR boost/numeric/conversion/conversion_traits.hpp)
find_library(VBM_OPENVDB_LIBRARY openvdb)
find_library(VBM_IMATH_LIBRARY NAMES Imath-3_1 Imath)
find_package(TBB CONFIG QUIET)

include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(DebianOpenVDB
  REQUIRED_VARS VBM_OPENVDB_INCLUDE_DIR VBM_BOOST_INCLUDE_DIR VBM_OPENVDB_LIBRARY VBM_IMATH_LIBRARY TBB_DIR
  REASON_FAILURE_MESSAGE "install libopenvdb-dev and libboost-dev (scripts/setup.sh does)")

if(DebianOpenVDB_FOUND AND TARGET TBB::tbb AND NOT TARGET vbm::openvdb)
  add_library(vbm::openvdb INTERFACE IMPORTED)
  # SYSTEM: OpenVDB's and Boost's warnings are not ours
  target_include_directories(vbm::openvdb SYSTEM INTERFACE ${VBM_OPENVDB_INCLUDE_DIR} ${VBM_BOOST_INCLUDE_DIR})
  target_link_libraries(vbm::openvdb INTERFACE ${VBM_OPENVDB_LIBRARY} ${VBM_IMATH_LIBRARY} TBB::tbb)
endif()
