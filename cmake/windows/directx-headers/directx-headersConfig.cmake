# Microsoft's DirectX-Headers (directx-headers-dev: headers only, and usable by mingw-w64) for
# the windows preset, as the target vcpkg's directx-headers package names:
# cmake/windows/host_headers.cmake.
include(${CMAKE_CURRENT_LIST_DIR}/../host_headers.cmake)
gs_host_headers(Microsoft::DirectX-Headers directx dxguids)
