// A whole bitonic sort in one workgroup, for counts up to one shared-memory tile (a few thousand
// elements): the network's size, the elements per invocation and the subgroup size are all
// specialization constants, so after specialization every loop below has a constant trip count
// and the driver unrolls the whole network into straight-line code: each step is a fixed run of
// min/max instructions, shuffles or shared-memory moves, with no decisions left at run time but
// the direction of each block (which depends on the count n).
// Reads binding 0 (the count n), sorts binding 1 (keys) and 2 (values) in place.
//
// Positions p of the network (0 <= p < N = 2^LOG_N) are global indices; positions at or past n
// are virtual padding holding maximal keys that never move (compare_exchange.glsl's order_pair
// says why). An invocation holds E = 2^E_BITS elements in one of two layouts:
//   - LOW: p = vt * E + i: register bits [0, E_BITS), lane bits [E_BITS, LOW_BITS), subgroup bits
//     above. Steps on register bits are min/max in registers, on lane bits subgroupShuffleXor.
//   - WINDOW(wl): the invocation's E elements differ in bits [wl, wl + E_BITS): steps on those
//     bits are in registers. A step above LOW_BITS moves the tile through shared memory into the
//     window whose top bit is that step's, and the next E_BITS - 1 steps need no further move.
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

const uint E = 1u << E_BITS;
const uint N = 1u << LOG_N;
const uint LOW_BITS = E_BITS + SUBGROUP_BITS;
const uint SHARED_ELEMS = N + N / 32u;  // one pad word per 32 (see pad())
const bool KEYS_ONLY = VALUE_WORDS == 0u;
const uint LOW = 0xffffffffu;  // the `window` value that stands for the LOW layout

#include "sort_io.glsl"
#include "sort_shared.glsl"

Elem w[E];
uint n;   // the element count
uint vt;  // the invocation's index in subgroup order: consecutive lanes, consecutive vt

// One pad word after every 32 keeps LOW's stride-E stores free of bank conflicts.
uint pad(uint p) { return p + (p >> 5u); }

// The position of element i of the invocation in a layout (LOW or a window's lowest bit).
uint position(uint window, uint i) {
  if (window == LOW) return vt * E + i;
  return (vt & ((1u << window) - 1u)) | (i << window) | ((vt >> window) << (window + E_BITS));
}

// Moves the tile from one layout to another through shared memory.
void exchange(uint from, uint to) {
  [[unroll]] for (uint i = 0; i < E; ++i) put_shared(pad(position(from, i)), w[i]);
  // Orders every invocation's writes before the reads of the new layout, which gather elements
  // that other invocations wrote. Each invocation's next writes go to the positions it reads
  // here, which no other invocation reads, so no barrier is needed before the next exchange.
  barrier();
  [[unroll]] for (uint i = 0; i < E; ++i) w[i] = get_shared(pad(position(to, i)));
}

// Bit 0: whether stage k sorts the block holding position p descending (classic direction mask
// with the block that holds the last element ascending: compare_exchange.glsl's ascending_at).
uint descending_bits(uint p, uint k) { return (p ^ (n - 1u)) >> k; }

// The step on register bit rb at stage k. `dir` is descending_bits of element 0; the other
// elements share it unless the stage lies below E_BITS in the LOW layout, where element i's
// direction is bit k of i.
void register_step(uint rb, uint k, uint dir, bool per_element) {
  [[unroll]] for (uint i = 0; i < E; ++i) {
    if ((i & (1u << rb)) == 0u) {
      const uint d = per_element ? dir ^ (i >> k) : dir;
      order_pair(w[i], w[i | (1u << rb)], (d & 1u) != 0u, KEY_WORDS, KEYS_ONLY);
    }
  }
}

Elem shuffle_xor(Elem e, uint mask) {
  Elem r = Elem(subgroupShuffleXor(e.k0, mask), 0u, 0u, 0u);
  if (KEY_WORDS == 2u) r.k1 = subgroupShuffleXor(e.k1, mask);
  if (VALUE_WORDS >= 1u) r.v0 = subgroupShuffleXor(e.v0, mask);
  if (VALUE_WORDS == 2u) r.v1 = subgroupShuffleXor(e.v1, mask);
  return r;
}

// The step on lane bit lb of the LOW layout, at a stage >= LOW's lane bits (one direction).
void shuffle_step(uint lb, uint dir) {
  const bool lower = (gl_SubgroupInvocationID & (1u << lb)) == 0u;
  const bool keep_smaller = lower == ((dir & 1u) == 0u);
  [[unroll]] for (uint i = 0; i < E; ++i) {
    w[i] = keep_smaller_or_larger(w[i], shuffle_xor(w[i], 1u << lb), keep_smaller, KEY_WORDS, KEYS_ONLY);
  }
}

// Stage k (blocks of 2^k sorted in alternating directions): the steps on bits k - 1 down to 0.
// Arrives and leaves in the LOW layout.
void stage_steps(uint k) {
  int b = int(k) - 1;
  uint window = LOW;
  [[unroll]] for (uint round = 0; round < LOG_N; ++round) {
    if (b < int(LOW_BITS)) break;
    // The window's bits lie below k: one direction for all of the invocation's elements.
    const uint wl = uint(b) + 1u - E_BITS;
    exchange(window, wl);
    window = wl;
    const uint dir = descending_bits(position(wl, 0u), k);
    [[unroll]] for (uint r = E_BITS; r > 0u; --r) register_step(r - 1u, k, dir, false);
    b = int(wl) - 1;
  }
  if (window != LOW) exchange(window, LOW);
  const uint dir = descending_bits(position(LOW, 0u), k);
  [[unroll]] for (uint lb = SUBGROUP_BITS; lb > 0u; --lb) {
    if (b >= int(E_BITS + lb - 1u)) shuffle_step(lb - 1u, dir);
  }
  [[unroll]] for (uint rb = E_BITS; rb > 0u; --rb) {
    if (b >= int(rb - 1u)) register_step(rb - 1u, k, dir, k < E_BITS);
  }
}

void main() {
  n = count;
  if (n == 0u) return;  // uniform: the whole workgroup leaves
  vt = gl_SubgroupID * gl_SubgroupSize + gl_SubgroupInvocationID;
  [[unroll]] for (uint i = 0; i < E; ++i) {
    const uint p = position(LOW, i);
    w[i] = p < n ? load_elem(p) : Elem(~0u, ~0u, 0u, 0u);  // padding: maximal keys
  }
  [[unroll]] for (uint k = 1; k <= LOG_N; ++k) stage_steps(k);
  [[unroll]] for (uint i = 0; i < E; ++i) {
    const uint p = position(LOW, i);
    if (p < n) store_elem(p, w[i]);
  }
}
