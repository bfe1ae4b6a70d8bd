# Writes OUTPUT (a header defining GS_GIT_COMMIT) from the source tree's HEAD, "+dirty" when
# tracked files differ from it, "unknown" outside git. Run at every build of gs-bench, so the
# JSON context names the code measured, not the code configured; the file is rewritten only
# when the text changes, so an unchanged tree rebuilds nothing.
execute_process(COMMAND git rev-parse --short=12 HEAD WORKING_DIRECTORY ${SOURCE_DIR}
  OUTPUT_VARIABLE commit OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE failed)
if(failed OR commit STREQUAL "")
  set(commit unknown)
else()
  execute_process(COMMAND git diff --quiet HEAD -- WORKING_DIRECTORY ${SOURCE_DIR}
    RESULT_VARIABLE dirty ERROR_QUIET)
  if(dirty)
    string(APPEND commit "+dirty")
  endif()
endif()
set(text "#define GS_GIT_COMMIT \"${commit}\"\n")
if(EXISTS ${OUTPUT})
  file(READ ${OUTPUT} old)
endif()
if(NOT old STREQUAL text)
  file(WRITE ${OUTPUT} "${text}")
endif()
