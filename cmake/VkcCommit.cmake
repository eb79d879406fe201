# Writes OUTPUT (a header defining VKC_GIT_COMMIT) with the source tree's commit, "-dirty" when
# it has changes, at every build, so that measurements name the code they ran. Run as
# `cmake -DSOURCE_DIR=... -DOUTPUT=... -P VkcCommit.cmake`; leaves OUTPUT untouched when unchanged.
execute_process(COMMAND git describe --always --dirty --abbrev=10 WORKING_DIRECTORY ${SOURCE_DIR}
                OUTPUT_VARIABLE commit OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
if(NOT commit)
  set(commit "unknown")
endif()
set(content "#define VKC_GIT_COMMIT \"${commit}\"\n")
if(EXISTS ${OUTPUT})
  file(READ ${OUTPUT} old)
endif()
if(NOT "${old}" STREQUAL "${content}")
  file(WRITE ${OUTPUT} "${content}")
endif()
