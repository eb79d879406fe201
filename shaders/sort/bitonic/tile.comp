// Bitonic sorting network steps on one tile per workgroup: the whole local sort, one stage's
// merge within the tile, or several global strides of one stage gathered into the tile.
// Reads and writes binding 1 (keys) and 2 (values) in place; reads binding 0 (the count n).
//
// A workgroup's tile has 2^(T_BITS + SUB_BITS) positions p. Position p stands for the global
// index q(p): tile bits below pc.c are q's low bits (runs of >= 32 consecutive elements, so
// accesses coalesce), tile bits from pc.c up go to q's bits from pc.lo up (the strides of a
// global pass), and the workgroup id fills q's remaining bits. A local pass has c = lo = tile bits.
// Inside, the top SUB_BITS tile bits index sub-tiles held in registers; each sub-tile of
// 2^T_BITS elements is exchanged through shared memory. A step on tile bit b is done
//   - in registers when b indexes the sub-tiles or an invocation's E = 2^E_BITS elements,
//   - by subgroupShuffleXor when b is a lane bit (E_BITS <= b < E_BITS + log2(subgroup size)),
//   - otherwise after a shared-memory exchange into a "window" layout in which the invocation
//     holds the E elements differing in tile bits [b - E_BITS + 1, b], so E_BITS steps share
//     one barrier. The coalesced layout of global loads and stores is the window of the top
//     E_BITS bits, so a pass's first E_BITS steps need no exchange.
// (Lane bits through shared memory instead were slower in all 36 paired H200 runs, by 3-137%.)
// Positions at or past n are virtual padding holding maximal keys, which never move
// (compare_exchange.glsl's order_pair says why), so no step checks for them.
// The direction of a stage's block is a bit of q; it is computed once per stage and invocation
// (it varies between an invocation's elements only in the LOW layout's first E_BITS - 1 stages).
#version 450
#extension GL_GOOGLE_include_directive : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_shuffle : require
#extension GL_EXT_control_flow_attributes : require
#include "bitonic_layout.h"

layout(local_size_x_id = BITONIC_SC_WORKGROUP) in;
layout(constant_id = BITONIC_TILE_KEY_WORDS) const uint KEY_WORDS = 1;
layout(constant_id = BITONIC_TILE_VALUE_WORDS) const uint VALUE_WORDS = 0;
layout(constant_id = BITONIC_TILE_KEY_KIND) const uint KEY_KIND = 0;
layout(constant_id = BITONIC_TILE_DESCENDING) const bool DESCENDING = false;
layout(constant_id = BITONIC_TILE_E_BITS) const uint E_BITS = 3;      // log2 of elements per invocation per sub-tile
layout(constant_id = BITONIC_TILE_SUB_BITS) const uint SUB_BITS = 0;  // log2 of sub-tiles held in registers
layout(constant_id = BITONIC_TILE_T_BITS) const uint T_BITS = 11;     // log2 of the shared tile: log2(workgroup size) + E_BITS

const uint E = 1u << E_BITS;
const uint SUBS = 1u << SUB_BITS;
const uint TILE = 1u << T_BITS;
const uint BIG_BITS = T_BITS + SUB_BITS;
const uint SHARED_ELEMS = TILE + TILE / 32u;  // one pad word per 32 (see pad())
const bool KEYS_ONLY = VALUE_WORDS == 0u;

#include "grid.glsl"
#include "sort_io.glsl"
#include "sort_shared.glsl"

layout(push_constant) uniform Push {
  uint k_first;  // first stage (block size 2^k_first) ...
  uint k_last;   // ... and last stage this pass performs
  uint c;        // tile bits below c are q's low bits
  uint lo;       // tile bit c maps to q bit lo
  uint bottom;   // the lowest tile bit stepped in each stage
} pc;

const uint LAYOUT_WINDOW = 1u;  // i supplies tile bits [wl, wl + E_BITS)
const uint LAYOUT_LOW = 2u;     // p = vt * E + i: lanes on bits [E_BITS, E_BITS + log2 S)
// The window of the top E_BITS bits is p = i * WG + tid: coalesced global loads and stores.
const uint COALESCED_WL = T_BITS - E_BITS;

Elem v[E * SUBS];  // the workgroup's tile, sub-tile by sub-tile, in the I/O layout (see main)
Elem w[E];         // the sub-tile being worked on, in the current layout

uint n;        // the element count
uint q_base;   // the bits of q that come from the workgroup id
uint sub;      // the sub-tile in w
uint stage;    // the stage being performed
uint vt;       // the invocation's index in subgroup order: consecutive lanes, consecutive vt

// One pad word after every 32 keeps strided layouts (LOW's stride E) free of bank conflicts.
uint pad(uint p) { return p + (p >> 5u); }

uint q_of(uint p) { return q_base | (p & ((1u << pc.c) - 1u)) | ((p >> pc.c) << pc.lo); }

uint tile_pos(uint form, uint wl, uint i) {
  const uint tid = gl_LocalInvocationID.x;
  if (form == LAYOUT_LOW) return vt * E + i;
  return (tid & ((1u << wl) - 1u)) | (i << wl) | ((tid >> wl) << (wl + E_BITS));
}

// Moves w from one layout to another through shared memory.
void exchange(uint from, uint from_wl, uint to, uint to_wl) {
  [[unroll]] for (uint i = 0; i < E; ++i) put_shared(pad(tile_pos(from, from_wl, i)), w[i]);
  // Orders every invocation's writes of the sub-tile before the reads of the new layout, which
  // gather elements other invocations wrote. (Each invocation next writes only the positions it
  // reads here, so no second barrier is needed before the next exchange.)
  barrier();
  [[unroll]] for (uint i = 0; i < E; ++i) w[i] = get_shared(pad(tile_pos(to, to_wl, i)));
}

// In bit 0: whether the current stage sorts the block holding global position q descending.
// Higher bits are those of q above the stage, xor n - 1's; callers look at bit 0 only.
uint descending_bits(uint q) { return stage >= 32u ? 0u : (q ^ (n - 1u)) >> stage; }

// descending_bits of the invocation's element 0 in a layout. Its other elements differ from it
// in tile bits that map to q bits below the stage, except in the LOW layout's stages below E_BITS
// (see register_step).
uint descending_bits_of(uint form, uint wl) { return descending_bits(q_of(sub * TILE + tile_pos(form, wl, 0u))); }

// The step on register bit `rb` of the current layout. `dir` is descending_bits_of the layout;
// `per_element`: the direction also depends on the element (LOW layout, stage < E_BITS, where
// tile bit `stage` is bit `stage` of the element index i, q(i) = q(0) | i).
void register_step(uint rb, uint dir, bool per_element) {
  [[unroll]] for (uint b = 0; b < E_BITS; ++b) {
    if (b == rb) {
      [[unroll]] for (uint i = 0; i < E; ++i) {
        if ((i & (1u << b)) == 0u) {
          const uint d = per_element ? dir ^ (i >> stage) : dir;
          order_pair(w[i], w[i | (1u << b)], (d & 1u) != 0u, KEY_WORDS, KEYS_ONLY);
        }
      }
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

// The step on lane bit `lb` of the LOW layout (a stage above E_BITS: one direction for the
// invocation, given by `dir`).
void shuffle_step(uint lb, uint dir) {
  const bool lower = (gl_SubgroupInvocationID & (1u << lb)) == 0u;
  const bool keep_smaller = lower == ((dir & 1u) == 0u);
  [[unroll]] for (uint i = 0; i < E; ++i) {
    w[i] = keep_smaller_or_larger(w[i], shuffle_xor(w[i], 1u << lb), keep_smaller, KEY_WORDS, KEYS_ONLY);
  }
}

uint top_bit(uint s) { return s - 1u < pc.c ? s - 1u : min(s - 1u - pc.lo + pc.c, BIG_BITS - 1u); }

// Whether the current layout holds tile bit b in registers, in a window below the stage's top
// tile bit (so that one direction holds for the invocation).
bool in_window(uint form, uint wl, uint b, uint top) {
  return form == LAYOUT_WINDOW && wl <= b && b < wl + E_BITS && wl + E_BITS <= top + 1u;
}

// Performs stages k0..k1 on tile bits below T_BITS (down to pc.bottom) for sub-tile `sub`,
// which arrives and leaves in the coalesced window.
void sub_tile_stages(uint k0, uint k1) {
  // Tile bits from low_bits up are stepped in windows, the ones below in the LOW layout.
  const uint low_bits = E_BITS + findLSB(gl_SubgroupSize);
  uint form = LAYOUT_WINDOW, wl = COALESCED_WL;
  for (stage = k0; stage <= k1; ++stage) {
    const uint top = top_bit(stage);
    int b = int(min(top, T_BITS - 1u));
    while (b >= int(pc.bottom)) {
      // A bit the current window holds is stepped there, even a lane bit: no shuffle needed.
      if (uint(b) >= low_bits || in_window(form, wl, uint(b), top)) {
        if (!in_window(form, wl, uint(b), top)) {
          const uint new_wl = uint(b) + 1u - E_BITS;
          exchange(form, wl, LAYOUT_WINDOW, new_wl);
          form = LAYOUT_WINDOW;
          wl = new_wl;
        }
        // The window's bits lie below the stage: one direction for the invocation.
        const uint dir = descending_bits_of(LAYOUT_WINDOW, wl);
        const int end = max(int(wl), int(pc.bottom));
        for (; b >= end; --b) register_step(uint(b) - wl, dir, false);
      } else {
        if (form != LAYOUT_LOW) exchange(form, wl, LAYOUT_LOW, 0u);
        form = LAYOUT_LOW;
        wl = 0u;
        const uint dir = descending_bits_of(LAYOUT_LOW, 0u);
        for (; b >= max(int(E_BITS), int(pc.bottom)); --b) shuffle_step(uint(b) - E_BITS, dir);
        if (stage >= E_BITS) {
          for (; b >= int(pc.bottom); --b) register_step(uint(b), dir, false);
        } else {
          for (; b >= int(pc.bottom); --b) register_step(uint(b), dir, true);
        }
      }
    }
  }
  if (form != LAYOUT_WINDOW || wl != COALESCED_WL) exchange(form, wl, LAYOUT_WINDOW, COALESCED_WL);
}

// Performs stages k0..k1 within every sub-tile.
void all_sub_tiles(uint k0, uint k1) {
  [[unroll]] for (uint s = 0; s < SUBS; ++s) {
    sub = s;
    [[unroll]] for (uint i = 0; i < E; ++i) w[i] = v[s * E + i];
    sub_tile_stages(k0, k1);
    [[unroll]] for (uint i = 0; i < E; ++i) v[s * E + i] = w[i];
  }
}

// The step on tile bit T_BITS + sb, between sub-tiles, all in registers. Tile bit `stage` is a
// sub-tile bit or above the tile: one direction per sub-tile.
void sub_tile_step(uint sb) {
  [[unroll]] for (uint b = 0; b < SUB_BITS; ++b) {
    if (b == sb) {
      [[unroll]] for (uint s = 0; s < SUBS; ++s) {
        if ((s & (1u << b)) == 0u) {
          const bool descending = (descending_bits(q_of(s * TILE)) & 1u) != 0u;
          [[unroll]] for (uint i = 0; i < E; ++i) {
            order_pair(v[s * E + i], v[(s | (1u << b)) * E + i], descending, KEY_WORDS, KEYS_ONLY);
          }
        }
      }
    }
  }
}

uint workgroup_bits(uint wg) {
  const uint low_width = pc.lo - pc.c;
  const uint high = low_width >= 32u ? 0u : wg >> low_width;
  const uint high_shift = pc.lo + BIG_BITS - pc.c;
  const uint low = (wg & ((1u << low_width) - 1u)) << pc.c;
  return low | (high == 0u ? 0u : high << high_shift);
}

void main() {
  n = count;
  q_base = workgroup_bits(linear_workgroup_id());
  if (q_base >= n) return;  // the whole tile is padding (uniform across the workgroup)
  vt = gl_SubgroupID * gl_SubgroupSize + gl_SubgroupInvocationID;
  // Global loads and stores use the coalesced window. (A count that fits one tile is sorted by
  // small.comp instead.)

  [[unroll]] for (uint s = 0; s < SUBS; ++s) {
    [[unroll]] for (uint i = 0; i < E; ++i) {
      const uint q = q_of(s * TILE + tile_pos(LAYOUT_WINDOW, COALESCED_WL, i));
      v[s * E + i] = q < n ? load_elem(q) : Elem(~0u, ~0u, 0u, 0u);  // padding: maximal keys
    }
  }
  if (pc.k_first <= T_BITS) all_sub_tiles(pc.k_first, min(pc.k_last, T_BITS));
  for (stage = max(pc.k_first, T_BITS + 1u); stage <= pc.k_last; ++stage) {
    const uint k = stage;
    for (int b = int(top_bit(k)); b >= int(max(T_BITS, pc.bottom)); --b) sub_tile_step(uint(b) - T_BITS);
    if (pc.bottom < T_BITS) all_sub_tiles(k, k);
    stage = k;
  }
  [[unroll]] for (uint s = 0; s < SUBS; ++s) {
    [[unroll]] for (uint i = 0; i < E; ++i) {
      const uint q = q_of(s * TILE + tile_pos(LAYOUT_WINDOW, COALESCED_WL, i));
      if (q < n) store_elem(q, v[s * E + i]);
    }
  }
}
