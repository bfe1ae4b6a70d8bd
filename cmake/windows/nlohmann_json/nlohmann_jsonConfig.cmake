# nlohmann_json (nlohmann-json3-dev, header-only) for the windows preset:
# cmake/windows/host_headers.cmake.
include(${CMAKE_CURRENT_LIST_DIR}/../host_headers.cmake)
gs_host_headers(nlohmann_json::nlohmann_json nlohmann)
