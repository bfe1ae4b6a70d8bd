# The host package's version (nlohmann-json3-dev), as its own version file says it.
include(/usr/share/cmake/nlohmann_json/nlohmann_jsonConfigVersion.cmake)
