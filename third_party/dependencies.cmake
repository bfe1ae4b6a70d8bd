# Every third-party dependency comes from a Debian bookworm package; nothing is downloaded or
# copied into the tree. third_party/README.md says which package and why.

find_package(TBB 2021 REQUIRED COMPONENTS tbb)      # libtbb-dev: the CPU engine's threads
find_package(xsimd 8 REQUIRED)                      # libxsimd-dev: the CPU engine's SIMD kernels

if(GS_BUILD_TOOLS OR GS_BUILD_TESTS)
  find_package(nlohmann_json 3.10 REQUIRED)         # nlohmann-json3-dev: case files
endif()
if(GS_BUILD_TESTS)
  find_package(GTest REQUIRED)                      # libgtest-dev
endif()
if(GS_BUILD_PERF)
  find_package(benchmark 1.7 REQUIRED)              # libbenchmark-dev: perf/
endif()
