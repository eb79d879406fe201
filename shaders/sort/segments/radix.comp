// Sorts segments longer than one tile: one workgroup per segment runs an LSD radix sort of it
// with 8-bit digits through the temporary buffer. Each digit pass counts the segment's digits,
// then ranks chunks of TILE keys in order (subgroup multisplit, common/radix_rank.glsl) and
// scatters each key to its digit's running place, so the pass is stable. A key moves with its
// position in the segment; values are read from a copy at the end, by that position. Passes over
// bytes in which every key of the segment agrees are skipped.
//
// Bindings 0-4: common/segments.glsl's; 5: the temporary, in 32-bit words: two sides, each
// (DATA_KEY_WORDS + 1) arrays of pc.elements words (key words, then positions), then, for pairs,
// a copy of the values (DATA_VALUE_WORDS words per element). A segment uses the range of its
// own elements in each array.
#version 450
#extension GL_GOOGLE_include_directive : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_EXT_control_flow_attributes : require
#include "segments_layout.h"
#include "radix_layout.h"

layout(local_size_x_id = SEG_SC_WORKGROUP) in;
layout(constant_id = SEG_KEY_WORDS) const uint DATA_KEY_WORDS = 1;
layout(constant_id = SEG_VALUE_WORDS) const uint DATA_VALUE_WORDS = 0;
layout(constant_id = SEG_KEY_KIND) const uint KEY_KIND = 0;
layout(constant_id = SEG_DESCENDING) const bool DESCENDING = false;
layout(constant_id = SEG_OUTPUT) const uint OUTPUT = SEG_OUTPUT_KEYS;
layout(constant_id = SEG_ROWS) const bool ROWS = false;
layout(constant_id = SEG_ITEMS) const uint ITEMS = 8;
layout(constant_id = SEG_MAX_SUBGROUPS) const uint MAX_SUBGROUPS = 16;
layout(constant_id = SEG_BALLOT_WORDS) const uint BALLOT_WORDS = 4;

const uint WG = gl_WorkGroupSize.x;
const uint TILE = WG * ITEMS;
const uint DIGITS_PER_INVOCATION = (RADIX + WG - 1u) / WG;
const bool PACKED_RANKS = false;
#define WORKGROUP_SCAN_MAX_SUBGROUPS MAX_SUBGROUPS

#include "grid.glsl"
#include "segments.glsl"
#include "workgroup_scan.glsl"

layout(std430, binding = 5) restrict buffer Temporary { uint temp[]; };

shared uint s_work[MAX_SUBGROUPS * RADIX];  // each subgroup's digit counters (radix_rank.glsl)
shared uint s_tile_start[RADIX];            // a chunk's digit counts, then their exclusive prefix
shared uint s_next[RADIX];                  // where each digit's next key goes in the segment
shared uint s_differs[2];                   // the bits in which some key differs from the first

#include "radix_rank.glsl"

const uint SIDE_WORDS = DATA_KEY_WORDS + 1u;

// Temporary word `word` (key words, then the position) of element i on side `side`.
uint temp_index(uint side, uint word, uint i) { return (side * SIDE_WORDS + word) * pc.elements + i; }
uint value_copy_index(uint i) { return 2u * SIDE_WORDS * pc.elements + i * DATA_VALUE_WORDS; }

uint digit_of(uvec2 ordered, uint pass) {
  return ((pass < 4u ? ordered.x : ordered.y) >> ((pass & 3u) * 8u)) & 0xFFu;
}

// Orders the workgroup's buffer writes before its later reads and writes, in other invocations.
void buffer_barrier() {
  controlBarrier(gl_ScopeWorkgroup, gl_ScopeWorkgroup, gl_StorageSemanticsBuffer | gl_StorageSemanticsShared,
                 gl_SemanticsAcquireRelease);
}

// Element i (global index) of the source: the caller's keys before the first pass (its position
// is i - b), else a temporary side.
void load_element(int side, uint b, uint i, out uvec2 key, out uint q) {
  if (side < 0) {
    key = load_ordered(i);
    q = i - b;
    return;
  }
  key = uvec2(temp[temp_index(uint(side), 0u, i)], 0u);
  if (DATA_KEY_WORDS == 2u) key.y = temp[temp_index(uint(side), 1u, i)];
  q = temp[temp_index(uint(side), DATA_KEY_WORDS, i)];
}

void store_element(uint side, uint i, uvec2 key, uint q) {
  temp[temp_index(side, 0u, i)] = key.x;
  if (DATA_KEY_WORDS == 2u) temp[temp_index(side, 1u, i)] = key.y;
  temp[temp_index(side, DATA_KEY_WORDS, i)] = q;
}

// Which byte passes the segment [b, b + n) needs: bit p set when some key's byte p differs from the first key's.
uint passes_needed(uint b, uint n) {
  if (gl_LocalInvocationIndex < 2u) s_differs[gl_LocalInvocationIndex] = 0u;
  const uvec2 first = load_ordered(b);
  uvec2 differs = uvec2(0u);
  for (uint i = gl_LocalInvocationIndex; i < n; i += WG) differs |= load_ordered(b + i) ^ first;
  differs = subgroupOr(differs);
  // Orders the zeroing above before the additions below.
  barrier();
  if (subgroupElect()) {
    atomicOr(s_differs[0], differs.x);
    atomicOr(s_differs[1], differs.y);
  }
  // Orders every subgroup's addition before the reads below.
  barrier();
  uint passes = 0u;
  for (uint p = 0u; p < 4u * DATA_KEY_WORDS; ++p) {
    if (digit_of(uvec2(s_differs[0], s_differs[1]), p) != 0u) passes |= 1u << p;
  }
  return passes;
}

// s_next = each digit's first place in the segment for pass p: the exclusive prefix of its counts.
void count_digits(int side, uint b, uint n, uint p) {
  for (uint d = gl_LocalInvocationIndex; d < RADIX; d += WG) s_next[d] = 0u;
  // Orders the zeroing before the counting.
  barrier();
  for (uint i = gl_LocalInvocationIndex; i < n; i += WG) {
    uvec2 key;
    uint q;
    load_element(side, b, b + i, key, q);
    atomicAdd(s_next[digit_of(key, p)], 1u);
  }
  // Orders every count before the scan reads them.
  barrier();
  const uint first = gl_LocalInvocationIndex * DIGITS_PER_INVOCATION;
  uint sum = 0u;
  for (uint r = 0u; r < DIGITS_PER_INVOCATION; ++r) {
    if (first + r < RADIX) sum += s_next[first + r];
  }
  uint total;
  uint running = workgroup_exclusive_add(sum, total);
  for (uint r = 0u; r < DIGITS_PER_INVOCATION; ++r) {
    if (first + r < RADIX) {
      const uint c = s_next[first + r];
      s_next[first + r] = running;
      running += c;
    }
  }
}

// Scatters the chunk of keys from position c0 of the segment to their places for pass p, stably.
void scatter_chunk(int side, uint to, uint b, uint n, uint c0, uint p) {
  for (uint i = gl_LocalInvocationIndex; i < MAX_SUBGROUPS * RADIX; i += WG) s_work[i] = 0u;
  // Orders the counters' zeroing before the ranking.
  barrier();
  const uint first = c0 + gl_SubgroupID * gl_SubgroupSize * ITEMS + gl_SubgroupInvocationID;
  const uvec4 lanes = subgroupBallot(true);
  uvec2 key[ITEMS];
  uint q[ITEMS], digit[ITEMS], rank[ITEMS];
  [[unroll]] for (uint k = 0u; k < ITEMS; ++k) {
    const uint i = first + k * gl_SubgroupSize;
    if (i < n) load_element(side, b, b + i, key[k], q[k]);
    digit[k] = i < n ? digit_of(key[k], p) : RADIX - 1u;
    rank[k] = subgroup_rank(digit[k], gl_SubgroupID * RADIX, lanes);
  }
  // Orders every subgroup's counters before the totals read them.
  barrier();
  const uint d0 = gl_LocalInvocationIndex * DIGITS_PER_INVOCATION;
  for (uint r = 0u; r < DIGITS_PER_INVOCATION; ++r) {
    if (d0 + r < RADIX) s_tile_start[d0 + r] = subgroup_total(d0 + r);
  }
  // Orders the totals before the scan over digits reads them.
  barrier();
  scan_tile_digits();
  // Orders the scan's results before every invocation reads them.
  barrier();
  [[unroll]] for (uint k = 0u; k < ITEMS; ++k) {
    const uint i = first + k * gl_SubgroupSize;
    if (i < n) {
      const uint d = digit[k];
      const uint in_chunk = s_work[gl_SubgroupID * RADIX + d] + rank[k];
      store_element(to, b + s_next[d] + in_chunk - s_tile_start[d], key[k], q[k]);
    }
  }
  // Orders every read of s_next and s_tile_start above before the advance below.
  barrier();
  for (uint r = 0u; r < DIGITS_PER_INVOCATION; ++r) {
    const uint d = d0 + r;
    if (d < RADIX) s_next[d] += (d + 1u < RADIX ? s_tile_start[d + 1u] : TILE) - s_tile_start[d];
  }
}

void main() {
  const uint j = linear_workgroup_id();
  if (j >= segments_to_sort()) return;  // uniform: the whole workgroup leaves
  const uvec2 range = segment_range(j);
  const uint b = range.x, n = range.y - range.x;
  if (OUTPUT == SEG_OUTPUT_PAIRS) {
    for (uint i = gl_LocalInvocationIndex; i < n; i += WG) {
      const uvec2 v = load_value(b + i);
      temp[value_copy_index(b + i)] = v.x;
      if (DATA_VALUE_WORDS == 2u) temp[value_copy_index(b + i) + 1u] = v.y;
    }
  }
  const uint passes = passes_needed(b, n);
  int side = -1;
  for (uint p = 0u; p < 4u * DATA_KEY_WORDS; ++p) {
    if ((passes & (1u << p)) == 0u) continue;
    const uint to = side == 0 ? 1u : 0u;
    count_digits(side, b, n, p);
    for (uint c0 = 0u; c0 < n; c0 += TILE) {
      // Orders the previous chunk's (or count_digits') uses of shared memory before this chunk's.
      barrier();
      scatter_chunk(side, to, b, n, c0, p);
    }
    // Orders the pass's writes before the next pass reads them and writes the side it read.
    buffer_barrier();
    side = int(to);
  }
  for (uint i = gl_LocalInvocationIndex; i < n; i += WG) {
    uvec2 key;
    uint q;
    load_element(side, b, b + i, key, q);
    uvec2 value = uvec2(0u);
    if (OUTPUT == SEG_OUTPUT_PAIRS) {
      value.x = temp[value_copy_index(b + q)];
      if (DATA_VALUE_WORDS == 2u) value.y = temp[value_copy_index(b + q) + 1u];
    }
    store_sorted(b, i, key, q, value);
  }
}
