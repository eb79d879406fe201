# Build-time shader pipeline: GLSL compute shaders -> SPIR-V (glslc) -> checked (spirv-val)
# -> embedded as uint32_t arrays in generated C++ files in the build tree, one named constant
# per shader, so that a misspelt shader fails to compile.
find_program(GLSLC glslc REQUIRED)
find_program(SPIRV_VAL spirv-val REQUIRED)

set(VKC_SPIRV_ENV vulkan1.2 CACHE STRING "SPIR-V target environment for the shaders")
# Holds vkc_shader_names.hpp (included by src/core/shaders.hpp): every target that has src/ on
# its include path needs this folder too.
set(VKC_SHADER_INCLUDE_DIR "${PROJECT_BINARY_DIR}/shaders/include")

# vkc_embed_shaders(<target> <shader-root> <include-dir> [PREFIX <prefix>] [NAMES_HEADER <file>])
# Compiles every <shader-root>/**/*.comp into <target> (an object library): for each shader
# "dir/name" (its path without .comp, after PREFIX), a constant vkc::shaders::dir_name (a Shader:
# the name and the SPIR-V words). By default the library's own: declared in the generated
# ${VKC_SHADER_INCLUDE_DIR}/vkc_shader_names.hpp, and vkc::shaders::all() lists them all. With
# NAMES_HEADER, a set apart from the library (the benchmarks'): declared in that header, not in
# all(). PREFIX keeps such names apart from the library's ("bench/": vkc::shaders::bench_occupancy).
function(vkc_embed_shaders target root include_dir)
  cmake_parse_arguments(PARSE_ARGV 3 arg "" "PREFIX;NAMES_HEADER" "")
  set(names_header "${VKC_SHADER_INCLUDE_DIR}/vkc_shader_names.hpp")
  if(arg_NAMES_HEADER)
    set(names_header "${arg_NAMES_HEADER}")
  endif()
  get_filename_component(header_name "${names_header}" NAME)
  get_filename_component(header_dir "${names_header}" DIRECTORY)
  file(GLOB_RECURSE sources CONFIGURE_DEPENDS "${root}/*.comp")
  list(SORT sources)
  set(gen_dir "${CMAKE_CURRENT_BINARY_DIR}/generated")
  set(generated "")
  set(declarations "")
  set(table_rows "")
  set(identifiers "")
  foreach(src IN LISTS sources)
    file(RELATIVE_PATH rel "${root}" "${src}")
    file(RELATIVE_PATH source_path "${PROJECT_SOURCE_DIR}" "${src}")
    string(REGEX REPLACE "\\.comp$" "" name "${arg_PREFIX}${rel}")
    string(MAKE_C_IDENTIFIER "${name}" identifier)
    if(identifier IN_LIST identifiers)
      message(FATAL_ERROR "${source_path}: its name ${identifier} is another shader's; rename one")
    endif()
    list(APPEND identifiers "${identifier}")
    set(spv "${gen_dir}/${name}.spv")
    set(cpp "${gen_dir}/${name}.spv.cpp")
    get_filename_component(spv_dir "${spv}" DIRECTORY)
    add_custom_command(
      OUTPUT "${cpp}"
      COMMAND ${CMAKE_COMMAND} -E make_directory "${spv_dir}"
      COMMAND ${GLSLC} --target-env=${VKC_SPIRV_ENV} -O -Werror -I "${include_dir}"
              -MD -MF "${spv}.d" -o "${spv}" "${src}"
      COMMAND ${SPIRV_VAL} --target-env ${VKC_SPIRV_ENV} "${spv}"
      COMMAND ${CMAKE_COMMAND} -DSPV=${spv} -DOUT=${cpp} -DNAME=${name} -DIDENTIFIER=${identifier} -DHEADER=${header_name}
              -P "${CMAKE_CURRENT_FUNCTION_LIST_DIR}/embed_spirv.cmake"
      DEPENDS "${src}" "${CMAKE_CURRENT_FUNCTION_LIST_DIR}/embed_spirv.cmake"
      DEPFILE "${spv}.d"
      COMMENT "Compiling shader ${name}"
      VERBATIM)
    list(APPEND generated "${cpp}")
    string(APPEND declarations "extern const Shader ${identifier};  ///< ${source_path}\n")
    string(APPEND table_rows "    &${identifier},\n")
  endforeach()
  # Written at configure time (the names are known then), only when they change, so that adding
  # a shader rebuilds what includes the list and editing one does not.
  configure_file("${CMAKE_CURRENT_FUNCTION_LIST_DIR}/shader_names.hpp.in" "${names_header}" @ONLY)
  if(NOT arg_NAMES_HEADER)
    configure_file("${CMAKE_CURRENT_FUNCTION_LIST_DIR}/shader_registry.cpp.in"
                   "${gen_dir}/shader_registry.cpp" @ONLY)
    list(APPEND generated "${gen_dir}/shader_registry.cpp")
  endif()
  add_library(${target} OBJECT ${generated})
  set_target_properties(${target} PROPERTIES POSITION_INDEPENDENT_CODE ON)
  target_include_directories(${target} PRIVATE "${PROJECT_SOURCE_DIR}/src" "${PROJECT_SOURCE_DIR}/include"
                                               "${VKC_SHADER_INCLUDE_DIR}" "${header_dir}")
endfunction()
