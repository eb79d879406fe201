# cmake -P script (-DTOOL=tools/vkc -DBENCH=bench): vkc uses only the public API, and the benchmarks
# reach the library's internals through one door.
# - tools/vkc: no private header of the library (core/, sort/, nbody/, mpi/) and no header of the
#   benchmarks (bench/); io/ (the tool's file layer) and the tool's own headers are allowed.
# - bench/ (vkc-bench, its harness and checks): the private headers only in bench_internals.hpp,
#   and that only in the benchmark commands' files (bench_*), which measure internals by design;
#   the harness's and the checks' own sources (harness.cpp, verify.cpp) are their implementation.
cmake_minimum_required(VERSION 3.25)
file(GLOB tool_sources "${TOOL}/*.cpp" "${TOOL}/*.hpp")
file(GLOB bench_sources "${BENCH}/*.cpp" "${BENCH}/*.hpp")
file(GLOB bench_headers RELATIVE "${BENCH}" "${BENCH}/*.hpp")
set(failures "")
foreach(file IN LISTS tool_sources bench_sources)
  get_filename_component(name "${file}" NAME)
  get_filename_component(dir "${file}" DIRECTORY)
  file(STRINGS "${file}" includes REGEX "^[ \t]*#[ \t]*include[ \t]*\"")
  foreach(line IN LISTS includes)
    string(REGEX REPLACE "^[^\"]*\"([^\"]+)\".*$" "\\1" header "${line}")
    if(dir STREQUAL TOOL AND header IN_LIST bench_headers)
      string(APPEND failures "\n  tools/vkc/${name} includes the benchmarks' header ${header}")
    elseif(header MATCHES "^(core|sort|nbody|mpi)/" AND NOT name MATCHES "^(bench_internals.hpp|harness.cpp|verify.cpp)$")
      string(APPEND failures "\n  ${name} includes the private header ${header}")
    elseif(header STREQUAL "bench_internals.hpp" AND NOT name MATCHES "^bench_")
      string(APPEND failures "\n  ${name} is no benchmark command but includes ${header}")
    endif()
  endforeach()
endforeach()
if(failures)
  message(FATAL_ERROR "the vkc tool or the benchmarks reach past the public API:${failures}")
endif()
list(LENGTH tool_sources tool_count)
list(LENGTH bench_sources bench_count)
message(STATUS "${tool_count} files of the tool and ${bench_count} of the benchmarks checked")
