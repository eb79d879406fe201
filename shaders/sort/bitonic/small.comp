// A whole bitonic sort in one workgroup, for counts up to one shared-memory tile (a few thousand
// elements): the network's size, the elements per invocation and the subgroup size are all
// specialization constants, so after specialization every loop below has a constant trip count
// and the driver unrolls the whole network into straight-line code: each step is a fixed run of
// min/max instructions, shuffles or shared-memory moves, with no decisions left at run time but
// the direction of each block (which depends on the count n).
// Reads binding 0 (the count n), sorts binding 1 (keys) and 2 (values) in place.
//
// Positions at or past n are virtual padding holding maximal keys that never move; the network
// and its layouts are common/bitonic_network.glsl's (one slot: the whole tile).
#version 450
#extension GL_GOOGLE_include_directive : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_shuffle : require
#extension GL_EXT_control_flow_attributes : require
#include "bitonic_layout.h"

layout(local_size_x_id = BITONIC_SC_WORKGROUP) in;
layout(constant_id = BITONIC_SMALL_KEY_WORDS) const uint KEY_WORDS = 1;
layout(constant_id = BITONIC_SMALL_VALUE_WORDS) const uint VALUE_WORDS = 0;
layout(constant_id = BITONIC_SMALL_KEY_KIND) const uint KEY_KIND = 0;
layout(constant_id = BITONIC_SMALL_DESCENDING) const bool DESCENDING = false;
layout(constant_id = BITONIC_SMALL_E_BITS) const uint E_BITS = 3;                // log2 of elements per invocation
layout(constant_id = BITONIC_SMALL_LOG_N) const uint LOG_N = 10;                 // log2 of the network: workgroup size * E
layout(constant_id = BITONIC_SMALL_SUBGROUP_BITS) const uint SUBGROUP_BITS = 5;  // log2 of the (required) subgroup size

const uint TILE_BITS = LOG_N;
const uint SHARED_ELEMS = (1u << LOG_N) + (1u << LOG_N) / 32u;  // one pad word per 32 (see pad())
const bool KEYS_ONLY = VALUE_WORDS == 0u;
const uint COMPARE_WORDS = KEY_WORDS;

#include "sort_io.glsl"
#include "sort_shared.glsl"
#include "bitonic_network.glsl"

uint n;  // the element count
uint slot_count(uint p) { return n; }

void main() {
  n = count;
  if (n == 0u) return;  // uniform: the whole workgroup leaves
  vt = gl_SubgroupID * gl_SubgroupSize + gl_SubgroupInvocationID;
  [[unroll]] for (uint i = 0; i < E; ++i) {
    const uint p = position(LOW, i);
    w[i] = p < n ? load_elem(p) : Elem(~0u, ~0u, 0u, 0u);  // padding: maximal keys
  }
  sort_slots();
  [[unroll]] for (uint i = 0; i < E; ++i) {
    const uint p = position(LOW, i);
    if (p < n) store_elem(p, w[i]);
  }
}
