// Key transforms: every key type maps to an unsigned integer whose ascending order is the
// requested order of the keys (the order contract of include/vkc/sort.hpp). Sorting kernels
// compare and bucket these "ordered" words only, and map back when they store.
//
//   uint   : as is
//   int    : sign bit flipped
//   float  : sign bit flipped for positives, all bits flipped for negatives, so -0.0 < +0.0
//   descending: all bits of the result flipped
//   NaN (either sign, any order): 0xFF80_0000 | payload for 32 bits, above every other key, so
//   NaNs come last in both orders; mapping back gives a positive NaN with the same payload.
#ifndef VKC_KEYS_GLSL
#define VKC_KEYS_GLSL

#include "key_layout.h"  // KEY_KIND_UINT, KEY_KIND_INT, KEY_KIND_FLOAT

uint to_ordered32(uint bits, uint kind, bool descending) {
  if (kind == KEY_KIND_FLOAT && (bits & 0x7FFFFFFFu) > 0x7F800000u) return 0xFF800000u | (bits & 0x007FFFFFu);
  uint t = bits;
  if (kind == KEY_KIND_INT) t ^= 0x80000000u;
  if (kind == KEY_KIND_FLOAT) t ^= ((bits & 0x80000000u) != 0u) ? 0xFFFFFFFFu : 0x80000000u;
  return descending ? ~t : t;
}

uint from_ordered32(uint t, uint kind, bool descending) {
  if (kind == KEY_KIND_FLOAT && t > 0xFF800000u) return 0x7F800000u | (t & 0x007FFFFFu);
  const uint u = descending ? ~t : t;
  if (kind == KEY_KIND_INT) return u ^ 0x80000000u;
  if (kind == KEY_KIND_FLOAT) return u ^ (((u & 0x80000000u) != 0u) ? 0x80000000u : 0xFFFFFFFFu);
  return u;
}

// 64-bit keys as (low, high) word pairs, the layout of a little-endian uint64 in a uint[] buffer.
uvec2 to_ordered64(uvec2 bits, uint kind, bool descending) {
  const uint hi_abs = bits.y & 0x7FFFFFFFu;
  if (kind == KEY_KIND_FLOAT && (hi_abs > 0x7FF00000u || (hi_abs == 0x7FF00000u && bits.x != 0u))) {
    return uvec2(bits.x, 0xFFF00000u | (bits.y & 0x000FFFFFu));
  }
  uvec2 t = bits;
  if (kind == KEY_KIND_INT) t.y ^= 0x80000000u;
  if (kind == KEY_KIND_FLOAT) t ^= ((bits.y & 0x80000000u) != 0u) ? uvec2(0xFFFFFFFFu) : uvec2(0u, 0x80000000u);
  return descending ? ~t : t;
}

uvec2 from_ordered64(uvec2 t, uint kind, bool descending) {
  if (kind == KEY_KIND_FLOAT && (t.y > 0xFFF00000u || (t.y == 0xFFF00000u && t.x != 0u))) {
    return uvec2(t.x, 0x7FF00000u | (t.y & 0x000FFFFFu));
  }
  const uvec2 u = descending ? ~t : t;
  if (kind == KEY_KIND_INT) return uvec2(u.x, u.y ^ 0x80000000u);
  if (kind == KEY_KIND_FLOAT) return u ^ (((u.y & 0x80000000u) != 0u) ? uvec2(0u, 0x80000000u) : uvec2(0xFFFFFFFFu));
  return u;
}

// The same maps for keys of `width` bits (8 or 16) in the low bits of a word, whose float
// exponent field is `exponent` (f16: 0x7C00, bf16: 0x7F80): what narrow keys sort as
// (sort/narrow_keys/). A NaN maps to its positive pattern with the sign bit set, above +inf in
// both orders, and back to that positive pattern.
uint to_ordered_narrow(uint bits, uint width, uint kind, uint exponent, bool descending) {
  const uint sign = 1u << (width - 1u), all = (1u << width) - 1u;
  if (kind == KEY_KIND_FLOAT && (bits & ~sign) > exponent) return bits | sign;
  uint t = bits;
  if (kind == KEY_KIND_INT) t ^= sign;
  if (kind == KEY_KIND_FLOAT) t = (bits & sign) != 0u ? ~bits & all : bits | sign;
  return descending ? ~t & all : t;
}

uint from_ordered_narrow(uint t, uint width, uint kind, uint exponent, bool descending) {
  const uint sign = 1u << (width - 1u), all = (1u << width) - 1u;
  if (kind == KEY_KIND_FLOAT && t > (sign | exponent)) return t & ~sign;
  const uint u = descending ? ~t & all : t;
  if (kind == KEY_KIND_INT) return u ^ sign;
  if (kind == KEY_KIND_FLOAT) return (u & sign) != 0u ? u ^ sign : ~u & all;
  return u;
}

// The largest ordered word: stands in for positions past the end of the array, which sort last.
const uint ORDERED32_MAX = 0xFFFFFFFFu;

#endif
