# Every third-party dependency comes from a Debian bookworm package; nothing is downloaded or
# copied into the tree. third_party/README.md says which package and why.

# libtbb-dev: the CPU engine's threads. The std::thread backend (GS_PARALLEL_BACKEND, src/)
# runs without it where there is none (the windows preset: Debian has no mingw oneTBB); TBB::tbb
# is then an empty name for the targets that list it, and nothing of oneTBB is linked.
if(GS_PARALLEL_BACKEND STREQUAL "std_threads")
  find_package(TBB 2021 QUIET COMPONENTS tbb)
  if(NOT TBB_FOUND)
    add_library(TBB::tbb INTERFACE IMPORTED)
    set(GS_WITHOUT_TBB ON)
  endif()
else()
  find_package(TBB 2021 REQUIRED COMPONENTS tbb)
endif()
find_package(xsimd 8 REQUIRED)                      # libxsimd-dev: the CPU engine's SIMD kernels
# Debian's xsimd 8.1 config links its target to "xtl" (it was packaged with xtl support) but
# never finds xtl, so anything linking xsimd gets -lxtl and fails to link. gs does not use
# xtl (only with XSIMD_ENABLE_XTL_COMPLEX): drop the dangling name rather than install xtl-dev.
if(NOT TARGET xtl)
  get_target_property(xsimd_links xsimd INTERFACE_LINK_LIBRARIES)
  if(xsimd_links)
    list(REMOVE_ITEM xsimd_links xtl)
    set_target_properties(xsimd PROPERTIES INTERFACE_LINK_LIBRARIES "${xsimd_links}")
  endif()
endif()

if(GS_BUILD_TOOLS OR GS_BUILD_TESTS OR GS_BUILD_PERF)
  find_package(nlohmann_json 3.10 REQUIRED)         # nlohmann-json3-dev: case files, perf suite
endif()
if(GS_BUILD_TESTS)
  find_package(GTest REQUIRED)                      # libgtest-dev, libgmock-dev (GTest::gmock)
endif()
if(GS_BUILD_PERF)
  find_package(benchmark 1.7 REQUIRED)              # libbenchmark-dev: perf/
endif()
