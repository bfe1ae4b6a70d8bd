# Cross build for ARM64 Linux with Debian's cross compiler (g++-aarch64-linux-gnu). The arm64
# libraries (oneTBB, GoogleTest) come from Debian multiarch (libtbb-dev:arm64 and friends) in
# /usr/lib/aarch64-linux-gnu; header-only ones (xsimd, nlohmann_json) are shared with the host.
# Test programs run under qemu-user (CMAKE_CROSSCOMPILING_EMULATOR), which ctest and
# gtest_discover_tests both use.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)

# qemu-aarch64 runs them with multiarch's arm64 loader and libc (libc6:arm64, which oneTBB's
# arm64 package brings). Not with -L /usr/aarch64-linux-gnu: that loader is the cross
# compiler's own glibc build, and mixed with multiarch's libc a process with threads hangs at
# exit.
find_program(GS_QEMU_AARCH64 qemu-aarch64 REQUIRED)
set(CMAKE_CROSSCOMPILING_EMULATOR ${GS_QEMU_AARCH64})

# Programs (glslc, python) are the host's; libraries only the target's architecture.
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
