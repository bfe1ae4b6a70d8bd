# The host package's version (libxsimd-dev), as its own version file says it.
file(GLOB _gs_host_version /usr/lib/*/cmake/xsimd/xsimdConfigVersion.cmake)
list(GET _gs_host_version 0 _gs_host_version)
include(${_gs_host_version})
