# vkd3d ships no CMake config file (only pkg-config's), so it is found by its files, into the
# imported target gs::vkd3d: by the build (gpu/CMakeLists.txt) and, installed beside
# gsConfig.cmake, by a consumer of gs::d3d12 (the static gs_d3d12 leaves libvkd3d to its link).
find_path(GS_VKD3D_INCLUDE_DIR vkd3d_d3d12.h PATH_SUFFIXES vkd3d)
find_library(GS_VKD3D_LIBRARY vkd3d)
if(GS_VKD3D_INCLUDE_DIR AND GS_VKD3D_LIBRARY AND NOT TARGET gs::vkd3d)
  add_library(gs::vkd3d UNKNOWN IMPORTED)
  set_target_properties(gs::vkd3d PROPERTIES IMPORTED_LOCATION "${GS_VKD3D_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${GS_VKD3D_INCLUDE_DIR}")
endif()
