// Widens packed 8- or 16-bit keys into their ordered images (keys.glsl, to_ordered_narrow), one
// 32-bit word each, which the algorithms then sort as unsigned words, ascending. One packed word
// an invocation. Reads bindings 0 (count) and 1 (packed keys); writes binding 2 (images).
#version 450
#extension GL_GOOGLE_include_directive : require
#include "narrow_keys.glsl"

layout(std430, binding = 1) readonly restrict buffer Packed { uint packed_keys[]; };
layout(std430, binding = 2) writeonly restrict buffer Images { uint images[]; };

void main() {
  const uint w = word_index(), n = key_count();
  if (w * PER_WORD >= n) return;
  const uint word = packed_keys[w];
  for (uint k = 0u; k < PER_WORD; ++k) {
    const uint i = w * PER_WORD + k;
    if (i < n) images[i] = to_ordered_narrow((word >> (k * KEY_BITS)) & KEY_MASK, KEY_BITS, KEY_KIND, EXPONENT, DESCENDING);
  }
}
