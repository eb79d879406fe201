// The bitonic network of sort/bitonic/small.comp and sort/segments/tile.comp: a workgroup tile of
// WG * E positions (E = 2^E_BITS per invocation) made of slots of N = 2^LOG_N positions, each slot
// sorted by its own network of stages 1 .. LOG_N; small.comp has one slot, the whole tile.
//
// The network is the classic one with the block that holds a slot's last real element always
// ascending; positions at or past a slot's count are padding holding maximal keys that never move
// (compare_exchange.glsl's order_pair says why). An invocation holds E elements in one of two
// layouts:
//   - LOW: p = vt * E + i: register bits [0, E_BITS), lane bits [E_BITS, LOW_BITS), subgroup bits
//     above. Steps on register bits are min/max in registers, on lane bits subgroupShuffleXor.
//   - WINDOW(wl): the invocation's E elements differ in bits [wl, wl + E_BITS): steps on those
//     bits are in registers. A step above LOW_BITS moves the tile through shared memory into the
//     window whose top bit is that step's, and the next E_BITS - 1 steps need no further move.
// Every element of an invocation lies in one slot in both layouts, as E <= N and a window's bits
// lie below LOG_N.
//
// The including shader declares E_BITS, LOG_N, SUBGROUP_BITS, TILE_BITS (log2 of WG * E),
// COMPARE_WORDS (elem_after's key_words), KEYS_ONLY, the shared arrays (sort_shared.glsl, at
// least 2^TILE_BITS + 2^TILE_BITS / 32 elements) and `uint slot_count(uint p)`, the count of real
// elements of the slot that holds tile position p.
#ifndef VKC_BITONIC_NETWORK_GLSL
#define VKC_BITONIC_NETWORK_GLSL

const uint E = 1u << E_BITS;
const uint N = 1u << LOG_N;
const uint LOW_BITS = E_BITS + SUBGROUP_BITS;
const uint LOW = 0xffffffffu;  // the `window` value that stands for the LOW layout

uint slot_count(uint p);

Elem w[E];
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

// Bit 0: whether stage k sorts the block holding tile position p descending (classic direction
// mask, within p's slot, with the block that holds its last element ascending:
// compare_exchange.glsl's ascending_at).
uint descending_bits(uint p, uint k) { return ((p & (N - 1u)) ^ (slot_count(p) - 1u)) >> k; }

// The step on register bit rb at stage k. `dir` is descending_bits of element 0; the other
// elements share it unless the stage lies below E_BITS in the LOW layout, where element i's
// direction is bit k of i.
void register_step(uint rb, uint k, uint dir, bool per_element) {
  [[unroll]] for (uint i = 0; i < E; ++i) {
    if ((i & (1u << rb)) == 0u) {
      const uint d = per_element ? dir ^ (i >> k) : dir;
      order_pair(w[i], w[i | (1u << rb)], (d & 1u) != 0u, COMPARE_WORDS, KEYS_ONLY);
    }
  }
}

Elem shuffle_xor(Elem e, uint mask) {
  Elem r = Elem(subgroupShuffleXor(e.k0, mask), 0u, 0u, 0u);
  if (KEY_WORDS >= 2u) r.k1 = subgroupShuffleXor(e.k1, mask);
  if (VALUE_WORDS >= 1u) r.v0 = subgroupShuffleXor(e.v0, mask);
  if (VALUE_WORDS == 2u) r.v1 = subgroupShuffleXor(e.v1, mask);
  return r;
}

// The step on lane bit lb of the LOW layout, at a stage >= LOW's lane bits (one direction).
void shuffle_step(uint lb, uint dir) {
  const bool lower = (gl_SubgroupInvocationID & (1u << lb)) == 0u;
  const bool keep_smaller = lower == ((dir & 1u) == 0u);
  [[unroll]] for (uint i = 0; i < E; ++i) {
    w[i] = keep_smaller_or_larger(w[i], shuffle_xor(w[i], 1u << lb), keep_smaller, COMPARE_WORDS, KEYS_ONLY);
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

// Sorts every slot of the tile; arrives and leaves in the LOW layout.
void sort_slots() {
  [[unroll]] for (uint k = 1; k <= LOG_N; ++k) stage_steps(k);
}

#endif
