# Run by ctest (see CMakeLists.txt): install gs into a fresh prefix, build PROJECT_DIR's consumer
# against the install and run it. With PKG_CONFIG_PACKAGE (gs or gs-d3d12), main.cc is compiled
# by hand with that package's pkg-config flags; otherwise the project is configured with CMake.
function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    string(REPLACE ";" " " cmd "${ARGN}")
    message(FATAL_ERROR "consumer: '${cmd}' failed: ${rc}")
  endif()
endfunction()

set(prefix ${WORK_DIR}/prefix)
set(build ${WORK_DIR}/build)
file(REMOVE_RECURSE ${WORK_DIR})  # a fresh prefix: nothing left over from an earlier run
run(${CMAKE_COMMAND} --install ${GS_BUILD_DIR} --prefix ${prefix} --config ${BUILD_TYPE})
separate_arguments(link_flags UNIX_COMMAND "${LINK_FLAGS}")

if(PKG_CONFIG_PACKAGE)
  if(NOT PKG_CONFIG)
    message(FATAL_ERROR "consumer: pkg-config not found (.ci/setup installs it)")
  endif()
  set(ENV{PKG_CONFIG_PATH} ${prefix}/${LIBDIR}/pkgconfig)
  execute_process(COMMAND ${PKG_CONFIG} --cflags --libs ${PKG_CONFIG_PACKAGE}
    OUTPUT_VARIABLE flags OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "consumer: pkg-config --cflags --libs ${PKG_CONFIG_PACKAGE} failed: ${rc}")
  endif()
  # They must be the flags of the gs just installed, not of one from elsewhere on the machine.
  if(NOT flags MATCHES "-I${prefix}/")
    message(FATAL_ERROR "consumer: pkg-config gave flags outside ${prefix}: ${flags}")
  endif()
  message(STATUS "consumer: c++ main.cc ${flags}")
  separate_arguments(flags UNIX_COMMAND "${flags}")
  file(MAKE_DIRECTORY ${build})
  run(${CXX} ${PROJECT_DIR}/main.cc -o ${build}/consumer ${flags} ${link_flags})
else()
  # A cross build's consumer is configured with the same toolchain file.
  set(toolchain "")
  if(TOOLCHAIN)
    set(toolchain -D CMAKE_TOOLCHAIN_FILE=${TOOLCHAIN})
  endif()
  run(${CMAKE_COMMAND} -S ${PROJECT_DIR} -B ${build} -G ${GENERATOR} ${toolchain}
      -D CMAKE_BUILD_TYPE=${BUILD_TYPE} -D CMAKE_CXX_COMPILER=${CXX}
      -D CMAKE_PREFIX_PATH=${prefix} -D CMAKE_FIND_USE_PACKAGE_REGISTRY=OFF
      "-DCMAKE_EXE_LINKER_FLAGS=${LINK_FLAGS}")
  # It must have found the gs just installed, not one from elsewhere on the machine.
  file(STRINGS ${build}/CMakeCache.txt gs_dir REGEX "^gs_DIR:")
  if(NOT gs_dir MATCHES "=${prefix}/")
    message(FATAL_ERROR "consumer: found the wrong gs: ${gs_dir}")
  endif()
  run(${CMAKE_COMMAND} --build ${build})
endif()

# A D3D12 consumer runs on lavapipe when there is no GPU, as the tests do, unless the caller
# chose a Vulkan driver.
if(ICD AND "$ENV{VK_DRIVER_FILES}$ENV{VK_ICD_FILENAMES}" STREQUAL "")
  set(ENV{VK_DRIVER_FILES} ${ICD})
  set(ENV{VK_ICD_FILENAMES} ${ICD})  # the name older Vulkan loaders read
endif()
# A cross build's consumer runs under the build's emulator (qemu-aarch64), as its tests do.
run(${EMULATOR} ${build}/consumer)
