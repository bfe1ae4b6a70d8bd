# The installed package: gs::gs always, gs::d3d12 (component d3d12) only when it is built, each
# as CMake targets (find_package(gs)) and as a pkg-config file (gs.pc, gs-d3d12.pc).
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)
set(cmake_dir ${CMAKE_INSTALL_LIBDIR}/cmake/gs)
set(pc_dir ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
# The .pc files find the prefix from their own place, so an install with --prefix works too.
file(RELATIVE_PATH GS_PC_PREFIX ${CMAKE_INSTALL_FULL_LIBDIR}/pkgconfig ${CMAKE_INSTALL_PREFIX})
string(REGEX REPLACE "/$" "" GS_PC_PREFIX "${GS_PC_PREFIX}")

install(TARGETS gs EXPORT gsTargets ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
# d3d12.h goes with gs::d3d12 below, so a package without it has no header to include.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/gs DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
        PATTERN "d3d12.h" EXCLUDE)
install(EXPORT gsTargets NAMESPACE gs:: DESTINATION ${cmake_dir})
export(EXPORT gsTargets NAMESPACE gs:: FILE ${PROJECT_BINARY_DIR}/gsTargets.cmake)
configure_file(${PROJECT_SOURCE_DIR}/cmake/gs.pc.in ${PROJECT_BINARY_DIR}/gs.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/gs.pc DESTINATION ${pc_dir})

if(TARGET gs_d3d12)
  set(GS_PACKAGE_HAS_D3D12 TRUE)
  # Its own export set, which gsConfig.cmake loads only for the component d3d12: a CPU-only
  # consumer never needs vkd3d.
  set_target_properties(gs_d3d12 PROPERTIES EXPORT_NAME d3d12)
  install(TARGETS gs_d3d12 EXPORT gsD3d12Targets
          ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
  install(FILES ${PROJECT_SOURCE_DIR}/include/gs/d3d12.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/gs)
  install(EXPORT gsD3d12Targets NAMESPACE gs:: DESTINATION ${cmake_dir})
  export(EXPORT gsD3d12Targets NAMESPACE gs:: FILE ${PROJECT_BINARY_DIR}/gsD3d12Targets.cmake)
  install(FILES ${PROJECT_SOURCE_DIR}/cmake/gsFindVkd3d.cmake DESTINATION ${cmake_dir})
  configure_file(${PROJECT_SOURCE_DIR}/cmake/gsFindVkd3d.cmake ${PROJECT_BINARY_DIR} COPYONLY)

  configure_file(${PROJECT_SOURCE_DIR}/cmake/gs-d3d12.pc.in ${PROJECT_BINARY_DIR}/gs-d3d12.pc @ONLY)
  install(FILES ${PROJECT_BINARY_DIR}/gs-d3d12.pc DESTINATION ${pc_dir})
else()
  set(GS_PACKAGE_HAS_D3D12 FALSE)
endif()

configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/gsConfig.cmake.in
  ${PROJECT_BINARY_DIR}/gsConfig.cmake INSTALL_DESTINATION ${cmake_dir})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/gsConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/gsConfig.cmake ${PROJECT_BINARY_DIR}/gsConfigVersion.cmake
  DESTINATION ${cmake_dir})
