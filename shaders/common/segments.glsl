// What the segmented sort's kernels (sort/segments/tile.comp, radix.comp) share: their bindings,
// where a workgroup finds its segments, and the loads and stores of keys (as ordered words,
// keys.glsl), values and indices.
//
// Bindings: 0 keys, 1 values (indices for argsort; any buffer for keys alone), 2 each segment's
// begin, 3 its end (uint32 element indices), 4 the plan (segments_layout.h; any buffer for rows).
// The including shader declares DATA_KEY_WORDS, DATA_VALUE_WORDS, KEY_KIND, DESCENDING, OUTPUT
// and ROWS first.
#ifndef VKC_SEGMENTS_GLSL
#define VKC_SEGMENTS_GLSL

#include "keys.glsl"
#include "segments_layout.h"

layout(std430, binding = 0) restrict buffer Keys { uint keys[]; };
layout(std430, binding = 1) restrict buffer Values { uint values[]; };
layout(std430, binding = 2) readonly restrict buffer Begins { uint begins[]; };
layout(std430, binding = 3) readonly restrict buffer Ends { uint ends[]; };
layout(std430, binding = 4) readonly restrict buffer Plan { uint plan[]; };

// segments: rows only, their number; columns: rows only, their length; size_class: the class
// whose segments this dispatch sorts (not rows); base: added to global indices (64 bits);
// elements: the array's length (radix.comp's temporary holds arrays of it).
layout(push_constant) uniform Push {
  uint segments;
  uint columns;
  uint size_class;
  uint base_low;
  uint base_high;
  uint elements;
} pc;

const bool CARRIES_INDEX = OUTPUT != SEG_OUTPUT_KEYS;
const bool WRITES_KEYS = OUTPUT == SEG_OUTPUT_KEYS || OUTPUT == SEG_OUTPUT_PAIRS;

// How many segments this dispatch sorts.
uint segments_to_sort() {
  if (ROWS) return pc.segments;
  return plan[pc.size_class == SEG_LARGE ? SEG_PLAN_LARGE_COUNT : SEG_PLAN_COUNTS + pc.size_class];
}

// [begin, end) of the dispatch's segment j (< segments_to_sort()).
uvec2 segment_range(uint j) {
  if (ROWS) return uvec2(j * pc.columns, j * pc.columns + pc.columns);
  const uint first = pc.size_class == SEG_LARGE ? plan[SEG_PLAN_LARGE_FIRST]
                                                : plan[SEG_PLAN_CURSORS + pc.size_class] - plan[SEG_PLAN_COUNTS + pc.size_class];
  const uint id = plan[SEG_PLAN_LIST + first + j];
  return uvec2(begins[id], ends[id]);
}

uvec2 load_ordered(uint i) {
  if (DATA_KEY_WORDS == 1u) return uvec2(to_ordered32(keys[i], KEY_KIND, DESCENDING), 0u);
  return to_ordered64(uvec2(keys[2u * i], keys[2u * i + 1u]), KEY_KIND, DESCENDING);
}

void store_ordered(uint i, uvec2 ordered) {
  if (DATA_KEY_WORDS == 1u) {
    keys[i] = from_ordered32(ordered.x, KEY_KIND, DESCENDING);
  } else {
    const uvec2 k = from_ordered64(ordered, KEY_KIND, DESCENDING);
    keys[2u * i] = k.x;
    keys[2u * i + 1u] = k.y;
  }
}

uvec2 load_value(uint i) {
  if (DATA_VALUE_WORDS == 1u) return uvec2(values[i], 0u);
  return uvec2(values[2u * i], values[2u * i + 1u]);
}

void store_value(uint i, uvec2 v) {
  if (DATA_VALUE_WORDS == 1u) {
    values[i] = v.x;
  } else {
    values[2u * i] = v.x;
    values[2u * i + 1u] = v.y;
  }
}

// The index an argsort writes for the element at position q of the segment that begins at b.
uvec2 index_of(uint b, uint q) {
  if (OUTPUT == SEG_OUTPUT_LOCAL_INDICES) return uvec2(q, 0u);
  const uint low = b + q + pc.base_low;
  return uvec2(low, pc.base_high + (low < pc.base_low ? 1u : 0u));
}

// Writes what the sort gives for position i of a segment that begins at b: the key `ordered`,
// whose original position in the segment was q, and its value `value` (pairs only).
void store_sorted(uint b, uint i, uvec2 ordered, uint q, uvec2 value) {
  if (WRITES_KEYS) store_ordered(b + i, ordered);
  if (OUTPUT == SEG_OUTPUT_PAIRS) store_value(b + i, value);
  if (OUTPUT == SEG_OUTPUT_LOCAL_INDICES || OUTPUT == SEG_OUTPUT_GLOBAL_INDICES) store_value(b + i, index_of(b, q));
}

#endif
