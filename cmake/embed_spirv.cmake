# cmake -P script: turns a SPIR-V binary (SPV) into a C++ file (OUT) that defines the constant
# vkc::shaders::IDENTIFIER, the shader NAME with its words, declared in HEADER (the generated names
# header, whose extern declaration gives the constant its external linkage).
file(READ "${SPV}" hex HEX)
string(LENGTH "${hex}" hex_len)
math(EXPR rem "${hex_len} % 8")
if(NOT rem EQUAL 0)
  message(FATAL_ERROR "${SPV}: size is not a multiple of 4 bytes")
endif()
# SPIR-V files are little-endian words: reverse the byte order of each group of 4.
string(REGEX REPLACE "(..)(..)(..)(..)" "0x\\4\\3\\2\\1u," words "${hex}")
file(WRITE "${OUT}" "// Generated from ${SPV}; do not edit.\n#include \"${HEADER}\"\n\n"
  "namespace vkc::shaders {\n"
  "namespace {\nconstexpr std::uint32_t kWords[] = {${words}};\n}  // namespace\n"
  "// Constant initialization: usable from any static initializer.\n"
  "constinit const Shader ${IDENTIFIER}{\"${NAME}\", kWords};\n}  // namespace vkc::shaders\n")
