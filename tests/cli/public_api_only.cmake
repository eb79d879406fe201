# cmake -P script (-DTOOL=tools/vkc -DHARNESS=bench/harness.hpp): the tool's commands use only the
# public API. The library's private headers (core/, sort/, nbody/, mpi/) may be included only by
# bench_internals.hpp, and that only by the benchmark commands' files (bench_*), which measure
# internals by design; io/ (the tool's file layer) and the tool's own headers are allowed.
file(GLOB sources "${TOOL}/*.cpp" "${TOOL}/*.hpp")
set(failures "")
foreach(file IN LISTS sources HARNESS)
  get_filename_component(name "${file}" NAME)
  file(STRINGS "${file}" includes REGEX "^[ \t]*#[ \t]*include[ \t]*\"")
  foreach(line IN LISTS includes)
    string(REGEX REPLACE "^[^\"]*\"([^\"]+)\".*$" "\\1" header "${line}")
    if(header MATCHES "^(core|sort|nbody|mpi)/" AND NOT name STREQUAL "bench_internals.hpp")
      string(APPEND failures "\n  ${name} includes the private header ${header}")
    elseif(header STREQUAL "bench_internals.hpp" AND NOT name MATCHES "^bench_")
      string(APPEND failures "\n  ${name} is no benchmark but includes ${header}")
    endif()
  endforeach()
endforeach()
if(failures)
  message(FATAL_ERROR "the vkc tool reaches past the public API:${failures}")
endif()
list(LENGTH sources count)
message(STATUS "${count} files of the tool checked")
