// Turns sorted ordered images (keys.glsl, to_ordered_narrow) back into packed 8- or 16-bit keys,
// one packed word an invocation; a last word that the count ends inside keeps its other bytes.
// Reads bindings 0 (count) and 2 (images); writes binding 1 (packed keys).
#version 450
#extension GL_GOOGLE_include_directive : require
#include "narrow_keys.glsl"

layout(std430, binding = 1) restrict buffer Packed { uint packed_keys[]; };
layout(std430, binding = 2) readonly restrict buffer Images { uint images[]; };

void main() {
  const uint w = word_index(), n = key_count();
  if (w * PER_WORD >= n) return;
  uint word = 0u, written = 0u;
  for (uint k = 0u; k < PER_WORD; ++k) {
    const uint i = w * PER_WORD + k;
    if (i >= n) break;
    word |= from_ordered_narrow(images[i], KEY_BITS, KEY_KIND, EXPONENT, DESCENDING) << (k * KEY_BITS);
    written |= KEY_MASK << (k * KEY_BITS);
  }
  if (written != 0xFFFFFFFFu) word |= packed_keys[w] & ~written;
  packed_keys[w] = word;
}
