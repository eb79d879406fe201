# cmake -P script: turns a SPIR-V binary (SPV) into a C++ file (OUT) defining SYMBOL as words.
file(READ "${SPV}" hex HEX)
string(LENGTH "${hex}" hex_len)
math(EXPR rem "${hex_len} % 8")
if(NOT rem EQUAL 0)
  message(FATAL_ERROR "${SPV}: size is not a multiple of 4 bytes")
endif()
# SPIR-V files are little-endian words: reverse the byte order of each group of 4.
string(REGEX REPLACE "(..)(..)(..)(..)" "0x\\4\\3\\2\\1u," words "${hex}")
math(EXPR count "${hex_len} / 8")
file(WRITE "${OUT}" "// Generated from ${SPV}; do not edit.\n#include <cstddef>\n#include <cstdint>\n"
  "namespace vkc::shaders::generated {\n"
  "extern const std::uint32_t ${SYMBOL}[] = {${words}};\n"
  "extern const std::size_t ${SYMBOL}_words = ${count};\n}\n")
