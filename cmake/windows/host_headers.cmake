# The windows preset's bridge to the host's header-only packages: a mingw compile must not see
# /usr/include (glibc's headers), so each package's own folder is linked into
# <build>/host-headers and an imported target points there. Used by the <Package>Config.cmake
# files beside it, which the preset names through <Package>_DIR.
function(gs_host_headers target)
  set(dir ${CMAKE_BINARY_DIR}/host-headers)
  foreach(folder IN LISTS ARGN)
    if(NOT EXISTS /usr/include/${folder})
      message(FATAL_ERROR "cmake/windows: /usr/include/${folder} is missing (see .ci/setup)")
    endif()
    if(NOT EXISTS ${dir}/${folder})
      file(MAKE_DIRECTORY ${dir})
      file(CREATE_LINK /usr/include/${folder} ${dir}/${folder} SYMBOLIC)
    endif()
  endforeach()
  if(NOT TARGET ${target})
    add_library(${target} INTERFACE IMPORTED)
    set_target_properties(${target} PROPERTIES INTERFACE_INCLUDE_DIRECTORIES ${dir})
  endif()
endfunction()
