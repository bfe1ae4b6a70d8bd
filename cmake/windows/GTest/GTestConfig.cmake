# GoogleTest for the windows preset: Debian ships no mingw build, so it is built here from
# Debian's own sources (package googletest, /usr/src/googletest), once per build folder, with
# the targets GTest::gtest, GTest::gtest_main, GTest::gmock, GTest::gmock_main.
if(NOT TARGET GTest::gtest)
  if(NOT EXISTS /usr/src/googletest/CMakeLists.txt)
    message(FATAL_ERROR "cmake/windows: /usr/src/googletest is missing (package googletest, see .ci/setup)")
  endif()
  set(INSTALL_GTEST OFF CACHE BOOL "" FORCE)
  set(gtest_force_shared_crt ON CACHE BOOL "" FORCE)
  add_subdirectory(/usr/src/googletest ${CMAKE_BINARY_DIR}/googletest EXCLUDE_FROM_ALL SYSTEM)
endif()
set(GTest_FOUND TRUE)
