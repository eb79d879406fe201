// The odd_even kernels' shared pieces: specialization constants, buffers, the tile in shared
// memory (ordered keys plus the tile position each element came from) and moving values.
#ifndef VKC_ODD_EVEN_TILE_GLSL
#define VKC_ODD_EVEN_TILE_GLSL

#extension GL_GOOGLE_include_directive : require
#include "odd_even_layout.h"
#include "grid.glsl"
#include "keys.glsl"

layout(local_size_x_id = ODD_EVEN_SC_WORKGROUP) in;
layout(constant_id = ODD_EVEN_TILE) const uint TILE = 4096;             // elements a workgroup holds (even; from shared memory)
layout(constant_id = ODD_EVEN_KEY_WORDS) const uint KEY_WORDS = 1;      // 1: 32-bit keys, 2: 64-bit keys
layout(constant_id = ODD_EVEN_VALUE_WORDS) const uint VALUE_WORDS = 0;  // 0, 1 or 2 words per value
layout(constant_id = ODD_EVEN_KEY_KIND) const uint KEY_KIND = 0;        // KEY_KIND_UINT / _INT / _FLOAT (keys.glsl)
layout(constant_id = ODD_EVEN_DESCENDING) const bool DESCENDING = false;

layout(std430, binding = 0) readonly restrict buffer Count { uint count; };
layout(std430, binding = 1) buffer Keys { uint keys[]; };
// Unused when VALUE_WORDS is 0 (the host then binds the keys buffer here).
layout(std430, binding = 2) buffer Values { uint values[]; };

const uint HALF = TILE / 2;  // the merge-split block: a tile is two neighbouring blocks

// The tile: slot s holds an ordered key (KEY_WORDS words); s_index says, per output position,
// which slot it takes. The key area doubles as the staging area for values (see move_values).
shared uint s_keys[TILE * KEY_WORDS];
shared uint s_index[TILE];

// The ordered key at global position g, as (low, high) words (high is 0 for 32-bit keys).
uvec2 ordered_key_at(uint g) {
  if (KEY_WORDS == 1) return uvec2(to_ordered32(keys[g], KEY_KIND, DESCENDING), 0u);
  return to_ordered64(uvec2(keys[2 * g], keys[2 * g + 1]), KEY_KIND, DESCENDING);
}

bool ordered_less(uvec2 a, uvec2 b) { return a.y < b.y || (a.y == b.y && a.x < b.x); }

// Reads the keys at global positions [base, base + m) into slots [0, m).
void load_tile(uint base, uint m) {
  for (uint s = gl_LocalInvocationID.x; s < m; s += gl_WorkGroupSize.x) {
    const uvec2 key = ordered_key_at(base + s);
    s_keys[s * KEY_WORDS] = key.x;
    if (KEY_WORDS == 2) s_keys[s * 2 + 1] = key.y;
  }
}

// Strict order of the keys in slots a and b: true when a's key sorts before b's. Elements are
// only reordered when this holds, which keeps equal keys in input order (stability).
bool slot_less(uint a, uint b) {
  if (KEY_WORDS == 1) return s_keys[a] < s_keys[b];
  const uint ha = s_keys[2 * a + 1], hb = s_keys[2 * b + 1];
  return ha < hb || (ha == hb && s_keys[2 * a] < s_keys[2 * b]);
}

// Writes the keys of output positions [0, m) to global positions [base, base + m): output p's
// key is in slot s_index[p] when `gather`, else in slot p (keys that were moved in place).
void store_keys(uint base, uint m, bool gather) {
  for (uint p = gl_LocalInvocationID.x; p < m; p += gl_WorkGroupSize.x) {
    const uint s = gather ? s_index[p] : p;
    if (KEY_WORDS == 1) {
      keys[base + p] = from_ordered32(s_keys[s], KEY_KIND, DESCENDING);
    } else {
      const uvec2 key = from_ordered64(uvec2(s_keys[2 * s], s_keys[2 * s + 1]), KEY_KIND, DESCENDING);
      keys[2 * (base + p)] = key.x;
      keys[2 * (base + p) + 1] = key.y;
    }
  }
}

// Moves the values of global positions [base, base + m) as their keys moved: output p takes the
// value of tile slot s_index[p]. One value word at a time goes through the key area, which
// holds at least m words, so that any value width fits. Call after store_keys.
void move_values(uint base, uint m) {
  for (uint w = 0; w < VALUE_WORDS; ++w) {
    // Orders every read of s_keys before (store_keys', or the previous word's gather) the
    // staging below overwrites it.
    barrier();
    for (uint p = gl_LocalInvocationID.x; p < m; p += gl_WorkGroupSize.x) {
      s_keys[p] = values[(base + p) * VALUE_WORDS + w];
    }
    // Makes the staged words visible to every invocation, and finishes every invocation's read
    // of this value word in the buffer before any invocation overwrites it below.
    memoryBarrierBuffer();
    barrier();
    for (uint p = gl_LocalInvocationID.x; p < m; p += gl_WorkGroupSize.x) {
      values[(base + p) * VALUE_WORDS + w] = s_keys[s_index[p]];
    }
  }
}

// Blocks of HALF elements that the count covers, the last one possibly partial.
uint half_blocks(uint n) { return n / HALF + ((n % HALF) != 0u ? 1u : 0u); }

#endif
