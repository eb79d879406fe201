# Build-time shader pipeline: GLSL compute shaders -> SPIR-V (glslc) -> checked (spirv-val)
# -> embedded as uint32_t arrays in generated C++ files in the build tree.
find_program(GLSLC glslc REQUIRED)
find_program(SPIRV_VAL spirv-val REQUIRED)

set(VKC_SPIRV_ENV vulkan1.2 CACHE STRING "SPIR-V target environment for the shaders")

# vkc_embed_shaders(<target> <shader-root> <include-dir>)
# Compiles every <shader-root>/**/*.comp into <target> (an object library), one array per
# shader, plus a registry that maps "dir/name" (path without .comp) to its words.
function(vkc_embed_shaders target root include_dir)
  file(GLOB_RECURSE sources CONFIGURE_DEPENDS "${root}/*.comp")
  set(gen_dir "${CMAKE_CURRENT_BINARY_DIR}/generated")
  set(generated "")
  set(registry_decls "")
  set(registry_rows "")
  foreach(src IN LISTS sources)
    file(RELATIVE_PATH rel "${root}" "${src}")
    string(REGEX REPLACE "\\.comp$" "" name "${rel}")
    string(MAKE_C_IDENTIFIER "spv_${name}" symbol)
    set(spv "${gen_dir}/${name}.spv")
    set(cpp "${gen_dir}/${name}.spv.cpp")
    get_filename_component(spv_dir "${spv}" DIRECTORY)
    add_custom_command(
      OUTPUT "${cpp}"
      COMMAND ${CMAKE_COMMAND} -E make_directory "${spv_dir}"
      COMMAND ${GLSLC} --target-env=${VKC_SPIRV_ENV} -O -Werror -I "${include_dir}"
              -MD -MF "${spv}.d" -o "${spv}" "${src}"
      COMMAND ${SPIRV_VAL} --target-env ${VKC_SPIRV_ENV} "${spv}"
      COMMAND ${CMAKE_COMMAND} -DSPV=${spv} -DOUT=${cpp} -DSYMBOL=${symbol}
              -P "${CMAKE_CURRENT_FUNCTION_LIST_DIR}/embed_spirv.cmake"
      DEPENDS "${src}" "${CMAKE_CURRENT_FUNCTION_LIST_DIR}/embed_spirv.cmake"
      DEPFILE "${spv}.d"
      COMMENT "Compiling shader ${name}"
      VERBATIM)
    list(APPEND generated "${cpp}")
    string(APPEND registry_decls "extern const std::uint32_t ${symbol}[];\nextern const std::size_t ${symbol}_words;\n")
    string(APPEND registry_rows "    {\"${name}\", generated::${symbol}, &generated::${symbol}_words},\n")
  endforeach()
  configure_file("${CMAKE_CURRENT_FUNCTION_LIST_DIR}/shader_registry.cpp.in"
                 "${gen_dir}/shader_registry.cpp" @ONLY)
  add_library(${target} OBJECT ${generated} "${gen_dir}/shader_registry.cpp")
  set_target_properties(${target} PROPERTIES POSITION_INDEPENDENT_CODE ON)
  target_include_directories(${target} PRIVATE "${PROJECT_SOURCE_DIR}/src" "${PROJECT_SOURCE_DIR}/include")
  target_link_libraries(${target} PRIVATE Vulkan::Headers)
endfunction()
