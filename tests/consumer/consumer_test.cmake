# Run by ctest (see CMakeLists.txt): install gs, build project/ against the install, run it.
function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    string(REPLACE ";" " " cmd "${ARGN}")
    message(FATAL_ERROR "consumer: '${cmd}' failed: ${rc}")
  endif()
endfunction()

set(prefix ${WORK_DIR}/prefix)
file(REMOVE_RECURSE ${WORK_DIR})  # a fresh prefix: nothing left over from an earlier run
run(${CMAKE_COMMAND} --install ${GS_BUILD_DIR} --prefix ${prefix} --config ${BUILD_TYPE})
run(${CMAKE_COMMAND} -S ${PROJECT_DIR} -B ${WORK_DIR}/build -G ${GENERATOR}
    -D CMAKE_BUILD_TYPE=${BUILD_TYPE} -D CMAKE_CXX_COMPILER=${CXX}
    -D CMAKE_PREFIX_PATH=${prefix} -D CMAKE_FIND_USE_PACKAGE_REGISTRY=OFF
    "-DCMAKE_EXE_LINKER_FLAGS=${LINK_FLAGS}")

# It must have found the gs just installed, not one from elsewhere on the machine.
file(STRINGS ${WORK_DIR}/build/CMakeCache.txt gs_dir REGEX "^gs_DIR:")
if(NOT gs_dir MATCHES "=${prefix}/")
  message(FATAL_ERROR "consumer: found the wrong gs: ${gs_dir}")
endif()

run(${CMAKE_COMMAND} --build ${WORK_DIR}/build)
run(${WORK_DIR}/build/consumer)
