# The install test: installs this build into a fresh prefix, configures and builds
# install_consumer (it links only vkc::sort) against it, checks that TBB is not on its link line
# and that vkc_sort is, then runs it. Variables: BUILD_DIR, SOURCE_DIR, WORK_DIR, GENERATOR.
file(REMOVE_RECURSE "${WORK_DIR}")
set(prefix "${WORK_DIR}/prefix")
set(consumer "${WORK_DIR}/consumer")

function(run_step what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE result OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "${what} failed (${result}):\n${out}\n${err}")
  endif()
  set(step_output "${out}${err}" PARENT_SCOPE)
endfunction()

run_step("install" ${CMAKE_COMMAND} --install "${BUILD_DIR}" --prefix "${prefix}")
run_step("configure the consumer" ${CMAKE_COMMAND} -S "${SOURCE_DIR}/install_consumer" -B "${consumer}"
         -G "${GENERATOR}" -DCMAKE_BUILD_TYPE=Release "-DCMAKE_PREFIX_PATH=${prefix}")
run_step("build the consumer" ${CMAKE_COMMAND} --build "${consumer}" --verbose)
string(REGEX MATCH "[^\n]*-o sort_consumer[^\n]*" link_line "${step_output}")
if(link_line STREQUAL "")
  message(FATAL_ERROR "no link line for sort_consumer in the build output:\n${step_output}")
endif()
if(NOT link_line MATCHES "libvkc_sort\\.a" OR NOT link_line MATCHES "libvkc_core\\.a")
  message(FATAL_ERROR "sort_consumer does not link vkc_sort and vkc_core:\n${link_line}")
endif()
string(TOLOWER "${link_line}" lower)
if(lower MATCHES "tbb")
  message(FATAL_ERROR "TBB is on the link line of a program that only sorts:\n${link_line}")
endif()
# No pipeline cache file in the home directory of whoever runs the tests.
run_step("run the consumer" ${CMAKE_COMMAND} -E env VKC_PIPELINE_CACHE=off "${consumer}/sort_consumer")
message(STATUS "${step_output}")
