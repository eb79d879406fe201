// The sorted output of an 8-bit keys-only radix sort, written without moving a key: equal keys are
// indistinguishable, so output index i holds the key of the digit d whose run [offset[d], offset[d + 1]) holds i.
// Reads binding 0 (count) and 2 (state: pass 0's digit offsets, from the histogram); writes binding 1 (keys).
#version 450
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_shader_8bit_storage : require

#include "radix_layout.h"

layout(local_size_x_id = RADIX_SC_WORKGROUP) in;
layout(constant_id = RADIX_FILL_TILE_WORDS) const uint TILE_WORDS = 1024;
layout(constant_id = RADIX_FILL_KEY_KIND) const uint KEY_KIND = 0;
layout(constant_id = RADIX_FILL_DESCENDING) const bool DESCENDING = false;
layout(constant_id = RADIX_FILL_EXPONENT) const uint EXPONENT = 0;

#include "grid.glsl"
#include "keys.glsl"

layout(std430, binding = 0) readonly buffer Count { uint count_value; };
layout(std430, binding = 1) writeonly buffer Keys { uint keys[]; };
// The same keys a byte at a time: the last word's bytes past the count keep their contents.
layout(std430, binding = 1) writeonly buffer Keys8 { uint8_t keys8[]; };
layout(std430, binding = 2) readonly buffer State { uint state[]; };
layout(push_constant) uniform Push { uint max_count; } pc;

const uint WG = gl_WorkGroupSize.x;
const uint KEYS_PER_WORD = 4u;

// Pass 0's digit offsets, offset[RADIX] = n: a key's digit is its whole ordered form.
shared uint s_offsets[RADIX + 1u];

// The digit whose run holds output index i < n: the last d with offset[d] <= i (an empty digit's
// run starts where the next one does, so the last such d is the one whose run is not empty).
uint digit_at(uint i) {
  uint low = 0u, high = RADIX;  // offset[low] <= i < offset[high]
  for (uint step = 0u; step < 8u; ++step) {  // log2(RADIX)
    const uint mid = (low + high) / 2u;
    if (s_offsets[mid] <= i) {
      low = mid;
    } else {
      high = mid;
    }
  }
  return low;
}

// The key at output index i < n, given `d` at or before the digit of its run: walks d on to it.
uint key_at(uint i, inout uint d) {
  while (s_offsets[d + 1u] <= i) ++d;
  return from_ordered_narrow(d, 8u, KEY_KIND, EXPONENT, DESCENDING);
}

// Output word w, wholly inside the count: one search for its first key, a walk for the others.
uint filled_word(uint w) {
  const uint first = w * KEYS_PER_WORD;
  uint d = digit_at(first);
  uint word = 0u;
  for (uint b = 0u; b < KEYS_PER_WORD; ++b) word |= key_at(first + b, d) << (8u * b);
  return word;
}

void main() {
  const uint n = min(count_value, pc.max_count);
  const uint lid = gl_LocalInvocationIndex;
  const uint first = linear_workgroup_id() * TILE_WORDS;  // this workgroup's first word
  if (first * KEYS_PER_WORD >= n) return;  // uniform: the grid is max_count's
  for (uint d = lid; d <= RADIX; d += WG) s_offsets[d] = d < RADIX ? state[STATE_OFFSETS + d] : n;
  // Orders the offsets' stores into shared memory before any invocation searches them.
  barrier();
  const uint whole = n / KEYS_PER_WORD;  // words wholly inside the count
  const uint end = min(first + TILE_WORDS, whole);
  // Word by word across the workgroup, so that each store of the workgroup is contiguous.
  for (uint w = first + lid; w < end; w += WG) keys[w] = filled_word(w);
  // The keys after the last whole word, a byte each, in the workgroup whose words reach them.
  const uint i = whole * KEYS_PER_WORD + lid;
  if (whole < first + TILE_WORDS && lid < KEYS_PER_WORD && i < n) {
    uint d = digit_at(i);
    keys8[i] = uint8_t(key_at(i, d));
  }
}
