// Sorts segments of up to one slot each in shared memory and registers: a workgroup takes SLOTS
// consecutive segments of its size class (or rows), one per slot of N = 2^LOG_N positions, and
// sorts every slot at once with the bitonic network of common/bitonic_network.glsl. Stable: each
// key carries its position in the segment as the lowest word of the comparison (nothing carries it
// for keys alone, where equal keys cannot be told apart), so no two elements compare equal.
// Values are not carried through the network: each sorted key's value is read from its original
// position at the end (pairs), or its position is written (argsort).
#version 450
#extension GL_GOOGLE_include_directive : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_shuffle : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_EXT_control_flow_attributes : require
#include "segments_layout.h"

layout(local_size_x_id = SEG_SC_WORKGROUP) in;
layout(constant_id = SEG_KEY_WORDS) const uint DATA_KEY_WORDS = 1;
layout(constant_id = SEG_VALUE_WORDS) const uint DATA_VALUE_WORDS = 0;
layout(constant_id = SEG_KEY_KIND) const uint KEY_KIND = 0;
layout(constant_id = SEG_DESCENDING) const bool DESCENDING = false;
layout(constant_id = SEG_OUTPUT) const uint OUTPUT = SEG_OUTPUT_KEYS;
layout(constant_id = SEG_ROWS) const bool ROWS = false;
layout(constant_id = SEG_E_BITS) const uint E_BITS = 3;
layout(constant_id = SEG_TILE_BITS) const uint TILE_BITS = 10;
layout(constant_id = SEG_LOG_N) const uint LOG_N = 10;
layout(constant_id = SEG_SUBGROUP_BITS) const uint SUBGROUP_BITS = 5;

#include "compare_exchange.glsl"
#include "grid.glsl"
#include "segments.glsl"

// The network's element: the ordered key, then the position as the lowest word where one is
// carried (32-bit keys: k1 key, k0 position; 64-bit keys: k1 k0 key, v0 position).
const uint COMPARE_WORDS = DATA_KEY_WORDS + (CARRIES_INDEX ? 1u : 0u);
const uint KEY_WORDS = COMPARE_WORDS > 2u ? 2u : COMPARE_WORDS;
const uint VALUE_WORDS = COMPARE_WORDS == 3u ? 1u : 0u;
const bool KEYS_ONLY = !CARRIES_INDEX;
const uint SHARED_ELEMS = (1u << TILE_BITS) + (1u << TILE_BITS) / 32u;
const uint SLOTS = 1u << (TILE_BITS - LOG_N);

#include "sort_shared.glsl"
#include "bitonic_network.glsl"

shared uint s_begin[SLOTS];
shared uint s_count[SLOTS];

uint slot_count(uint p) { return s_count[p >> LOG_N]; }

Elem element_of(uvec2 ordered, uint q) {
  if (!CARRIES_INDEX) return Elem(ordered.x, ordered.y, 0u, 0u);
  if (DATA_KEY_WORDS == 1u) return Elem(q, ordered.x, 0u, 0u);
  return Elem(ordered.x, ordered.y, q, 0u);
}

uvec2 key_of(Elem e) {
  if (CARRIES_INDEX && DATA_KEY_WORDS == 1u) return uvec2(e.k1, 0u);
  return uvec2(e.k0, e.k1);
}

uint position_of(Elem e) { return DATA_KEY_WORDS == 1u ? e.k0 : e.v0; }

// Orders every invocation's buffer reads before the buffer writes that follow, which may go to
// positions another invocation read (a segment is sorted in place).
void reads_before_writes() {
  controlBarrier(gl_ScopeWorkgroup, gl_ScopeWorkgroup, gl_StorageSemanticsBuffer, gl_SemanticsAcquireRelease);
}

void main() {
  const uint first = linear_workgroup_id() * SLOTS;
  const uint total = segments_to_sort();
  if (first >= total) return;  // uniform: the whole workgroup leaves
  vt = gl_SubgroupID * gl_SubgroupSize + gl_SubgroupInvocationID;
  for (uint s = gl_LocalInvocationIndex; s < SLOTS; s += gl_WorkGroupSize.x) {
    const uvec2 range = first + s < total ? segment_range(first + s) : uvec2(0u);
    s_begin[s] = range.x;
    s_count[s] = range.y - range.x;
  }
  // Orders the slots' ranges before every invocation reads them.
  barrier();
  [[unroll]] for (uint i = 0; i < E; ++i) {
    const uint p = position(LOW, i), q = p & (N - 1u), slot = p >> LOG_N;
    w[i] = q < s_count[slot] ? element_of(load_ordered(s_begin[slot] + q), q) : Elem(~0u, ~0u, ~0u, ~0u);
  }
  sort_slots();
  uvec2 value[E];
  const uint slot = position(LOW, 0u) >> LOG_N;
  const uint b = s_begin[slot], n = s_count[slot];
  if (OUTPUT == SEG_OUTPUT_PAIRS) {
    [[unroll]] for (uint i = 0; i < E; ++i) {
      const uint q = position(LOW, i) & (N - 1u);
      value[i] = q < n ? load_value(b + position_of(w[i])) : uvec2(0u);
    }
  }
  reads_before_writes();
  [[unroll]] for (uint i = 0; i < E; ++i) {
    const uint q = position(LOW, i) & (N - 1u);
    if (q < n) store_sorted(b, q, key_of(w[i]), position_of(w[i]), value[i]);
  }
}
