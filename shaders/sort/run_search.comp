// Where boundaries of a merged order fall in one sorted run (src/sort/run_parts.hpp): for each
// query, the first position whose ordered key is at or past the query's key (past it, for an
// `after` query). A binary search an invocation; the host cuts parts from the positions.
// Reads bindings 0 (the run's keys) and 1 (queries); writes binding 2 (positions).
#version 450
#extension GL_GOOGLE_include_directive : require
#include "sort_layout.h"
#include "grid.glsl"
#include "keys.glsl"

layout(local_size_x_id = SORT_SC_WORKGROUP) in;
layout(constant_id = RUN_SEARCH_KEY_WORDS) const uint KEY_WORDS = 1;
layout(constant_id = RUN_SEARCH_KEY_KIND) const uint KEY_KIND = KEY_KIND_UINT;
layout(constant_id = RUN_SEARCH_DESCENDING) const bool DESCENDING = false;
layout(constant_id = RUN_SEARCH_KEY_BITS) const uint KEY_BITS = 32;
layout(constant_id = RUN_SEARCH_EXPONENT) const uint EXPONENT = 0;

layout(std430, binding = 0) readonly restrict buffer Run { uint run[]; };
// (ordered key low word, high word (0 for 32-bit keys), 1 for `after`, unused)
layout(std430, binding = 1) readonly restrict buffer Queries { uvec4 queries[]; };
layout(std430, binding = 2) writeonly restrict buffer Positions { uint positions[]; };
layout(push_constant) uniform Push {
  uint count;           // keys in the run
  uint query_count;
  uint first_position;  // where this run's positions start in binding 2
  uint range_low;       // the bits of the ordered key that count (SortOptions::begin_bit, end_bit),
  uint range_high;      // low word and high word
} pc;

// The ordered key at position i as (low, high) words, cut to the bit range. Narrow keys lie
// packed, 32 / KEY_BITS to a word (narrow_keys.glsl).
uvec2 unmasked_ordered_key(uint i) {
  if (KEY_BITS < 32u) {
    const uint per_word = 32u / KEY_BITS;
    const uint bits = (run[i / per_word] >> ((i % per_word) * KEY_BITS)) & ((1u << KEY_BITS) - 1u);
    return uvec2(to_ordered_narrow(bits, KEY_BITS, KEY_KIND, EXPONENT, DESCENDING), 0u);
  }
  if (KEY_WORDS == 1) return uvec2(to_ordered32(run[i], KEY_KIND, DESCENDING), 0u);
  return to_ordered64(uvec2(run[2u * i], run[2u * i + 1u]), KEY_KIND, DESCENDING);
}

uvec2 ordered_key(uint i) { return unmasked_ordered_key(i) & uvec2(pc.range_low, pc.range_high); }

bool less(uvec2 a, uvec2 b) { return a.y < b.y || (a.y == b.y && a.x < b.x); }

void main() {
  const uint q = linear_workgroup_id() * gl_WorkGroupSize.x + gl_LocalInvocationID.x;
  if (q >= pc.query_count) return;
  const uvec4 query = queries[q];
  uint lo = 0u, hi = pc.count;  // the position is in [lo, hi]
  while (lo < hi) {
    const uint mid = lo + (hi - lo) / 2u;
    const uvec2 key = ordered_key(mid);
    const bool before_it = query.z == 0u ? less(key, query.xy) : !less(query.xy, key);
    if (before_it) {
      lo = mid + 1u;
    } else {
      hi = mid;
    }
  }
  positions[pc.first_position + q] = lo;
}
