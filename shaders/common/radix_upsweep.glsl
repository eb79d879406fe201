// The body of sort/radix/upsweep and sort/radix/upsweep_narrow (see upsweep.comp): the including
// shader declares #version and the extensions, and RADIX_NARROW_KEYS for 8- or 16-bit keys.
#ifndef VKC_RADIX_UPSWEEP_GLSL
#define VKC_RADIX_UPSWEEP_GLSL

#include "radix_layout.h"

layout(local_size_x_id = RADIX_SC_WORKGROUP) in;
layout(constant_id = RADIX_UPSWEEP_ITEMS) const uint ITEMS = 16;
layout(constant_id = RADIX_UPSWEEP_KEY_WORDS) const uint KEY_WORDS = 1;
layout(constant_id = RADIX_UPSWEEP_KEY_KIND) const uint KEY_KIND = 0;
layout(constant_id = RADIX_UPSWEEP_DESCENDING) const bool DESCENDING = false;
layout(constant_id = RADIX_UPSWEEP_BIT_RANGE) const bool BIT_RANGE = false;  // see digit_of (radix.glsl)
#ifdef RADIX_NARROW_KEYS
layout(constant_id = RADIX_UPSWEEP_KEY_BITS) const uint KEY_BITS = 16;  // 8 or 16
layout(constant_id = RADIX_UPSWEEP_EXPONENT) const uint EXPONENT = 0;   // to_ordered_narrow's
#endif

#include "grid.glsl"
#include "radix.glsl"

layout(std430, binding = 0) readonly buffer Count { uint count_value; };
layout(std430, binding = 1) readonly buffer KeysA { uint keys_a[]; };
layout(std430, binding = 2) readonly buffer KeysB { uint keys_b[]; };
layout(std430, binding = 3) buffer State { uint state[]; };
#ifdef RADIX_NARROW_KEYS
// The same keys, KEY_BITS at a time.
layout(std430, binding = 1) readonly buffer Keys16A { uint16_t keys16_a[]; };
layout(std430, binding = 2) readonly buffer Keys16B { uint16_t keys16_b[]; };
layout(std430, binding = 1) readonly buffer Keys8A { uint8_t keys8_a[]; };
layout(std430, binding = 2) readonly buffer Keys8B { uint8_t keys8_b[]; };
#define KEY_A(i) (KEY_BITS == 16u ? uint(keys16_a[i]) : uint(keys8_a[i]))
#define KEY_B(i) (KEY_BITS == 16u ? uint(keys16_b[i]) : uint(keys8_b[i]))
#else
#define KEY_A(i) keys_a[i]
#define KEY_B(i) keys_b[i]
#endif
layout(push_constant) uniform Push { RADIX_PASS_PUSH_FIELDS } pc;
uvec2 key_range() { return uvec2(pc.range_low, pc.range_high); }

const uint WG = gl_WorkGroupSize.x;
const uint TILE = WG * ITEMS;
shared uint s_hist[RADIX];

void main() {
  const uint n = min(count_value, pc.max_count);
  const uint info = state[STATE_PASS_INFO + pc.pass];
  const uint tile = linear_workgroup_id();
  if (tile >= pc.tiles || tile * TILE >= n) return;
  const bool from_b = (info & PASS_FROM_B) != 0u;
  const bool planar = SPLIT_KEY && (info & PASS_READ_PLANAR) != 0u;
  const uint lid = gl_LocalInvocationIndex;
  for (uint d = lid; d < RADIX; d += WG) s_hist[d] = 0u;
  // Orders the zeroing before the counting.
  barrier();
  // Indices past the count are clamped (and not counted), so all loads can be in flight at once.
  const uint first = tile * TILE + lid;
  const uint word = digit_word(pc.pass);  // a split key's other word is not needed
  uint raw[ITEMS];
  if (from_b) {
    [[unroll]] for (uint k = 0u; k < ITEMS; ++k) {
      const uint i = min(first + k * WG, n - 1u);
      raw[k] = SPLIT_KEY ? keys_b[key_word_index(i, word, planar, n)] : KEY_B(i);
    }
  } else {
    [[unroll]] for (uint k = 0u; k < ITEMS; ++k) {
      const uint i = min(first + k * WG, n - 1u);
      raw[k] = SPLIT_KEY ? keys_a[key_word_index(i, word, planar, n)] : KEY_A(i);
    }
  }
  [[unroll]] for (uint k = 0u; k < ITEMS; ++k) {
    const uint ordered = SPLIT_KEY ? ordered_key_word(raw[k], word) : to_ordered_key(uvec2(raw[k], 0u)).x;
    if (first + k * WG < n) atomicAdd(s_hist[digit_of(uvec2(ordered), pc.pass)], 1u);
  }
  // Orders every count before the counts are written out.
  barrier();
  for (uint d = lid; d < RADIX; d += WG) state[pc.table + d * pc.tiles + tile] = s_hist[d];
}

#endif
