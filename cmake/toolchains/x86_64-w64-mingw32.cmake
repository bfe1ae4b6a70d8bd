# Cross build for Windows x64 with Debian's mingw-w64 (g++-mingw-w64-x86-64-posix: the posix
# thread model, which std::thread needs). Executables are linked statically (libstdc++,
# libgcc, winpthread), so a PE32+ file runs alone, on Windows or under Wine. Debian has no mingw
# builds of oneTBB or GoogleTest: the CPU engine runs on its std::thread backend, and
# cmake/windows/ builds GoogleTest from Debian's sources (googletest) and hands the host's
# header-only packages over without the rest of /usr/include (cmake/windows/README.md).
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR x86_64)
set(CMAKE_C_COMPILER x86_64-w64-mingw32-gcc-posix)
set(CMAKE_CXX_COMPILER x86_64-w64-mingw32-g++-posix)
set(CMAKE_RC_COMPILER x86_64-w64-mingw32-windres)
set(CMAKE_FIND_ROOT_PATH /usr/x86_64-w64-mingw32)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
set(CMAKE_EXE_LINKER_FLAGS_INIT "-static")

# Test programs run under Wine, on an X display of their own (Wine's d3d12 needs one for its
# adapter: without, D3D12CreateDevice fails with 0x887A0004).
set(CMAKE_CROSSCOMPILING_EMULATOR ${CMAKE_CURRENT_LIST_DIR}/../windows/wine-run)
