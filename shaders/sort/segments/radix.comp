// Sorts segments longer than one tile: one workgroup per segment runs an LSD radix sort of it
// with 8-bit digits through the temporary buffer. Each digit pass counts the segment's digits,
// then ranks chunks of TILE keys in order (subgroup multisplit, common/radix_rank.glsl) and
// scatters each key to its digit's running place, so the pass is stable; one read of the segment
// counts the digits of every pass first. A key moves with its position in the segment; the last
// pass writes the output, each value read from a copy by that position. Passes in which one digit
// holds every key of the segment are skipped.
//
// Bindings 0-4: common/segments.glsl's; 5: the temporary, in 32-bit words: two sides, each
// SIDE_WORDS arrays of pc.elements words (key words, then positions), then, for pairs,
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

// Keys alone carry no position: equal keys cannot be told apart, and nothing is gathered by it.
const uint SIDE_WORDS = DATA_KEY_WORDS + (CARRIES_INDEX ? 1u : 0u);

// Each subgroup's digit counters while ranking (radix_rank.glsl); then the chunk's elements,
// staged in order of their places, one array per word (key words, then the position), so that
// the counters and the staged words share one allocation.
const uint WORK_WORDS = MAX_SUBGROUPS * RADIX > TILE * SIDE_WORDS ? MAX_SUBGROUPS * RADIX : TILE * SIDE_WORDS;
shared uint s_work[WORK_WORDS];
shared uint s_tile_start[RADIX];            // a chunk's digit counts, then their exclusive prefix
shared uint s_next[RADIX];                  // where each digit's next key goes in the segment
const uint PASSES = 4u * DATA_KEY_WORDS;
shared uint s_counts[PASSES * RADIX];       // every pass's digit counts in the segment
shared uint s_skipped;                      // bit p: one digit holds every key in pass p

#include "radix_rank.glsl"

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
  q = CARRIES_INDEX ? temp[temp_index(uint(side), DATA_KEY_WORDS, i)] : 0u;
}

void store_element(uint side, uint i, uvec2 key, uint q) {
  temp[temp_index(side, 0u, i)] = key.x;
  if (DATA_KEY_WORDS == 2u) temp[temp_index(side, 1u, i)] = key.y;
  if (CARRIES_INDEX) temp[temp_index(side, DATA_KEY_WORDS, i)] = q;
}

// Counts the digits of every pass in one read of the segment [b, b + n) (s_counts) and returns
// the passes needed: bit p set unless one digit holds all n keys in pass p.
uint count_digits(uint b, uint n) {
  for (uint i = gl_LocalInvocationIndex; i < PASSES * RADIX; i += WG) s_counts[i] = 0u;
  if (gl_LocalInvocationIndex == 0u) s_skipped = 0u;
  // Orders the zeroing before the counting.
  barrier();
  for (uint i = gl_LocalInvocationIndex; i < n; i += WG) {
    const uvec2 key = load_ordered(b + i);
    for (uint p = 0u; p < PASSES; ++p) atomicAdd(s_counts[p * RADIX + digit_of(key, p)], 1u);
  }
  // Orders every count before the reads below.
  barrier();
  for (uint i = gl_LocalInvocationIndex; i < PASSES * RADIX; i += WG) {
    if (s_counts[i] == n) atomicOr(s_skipped, 1u << (i / RADIX));
  }
  // Orders the skipped passes' bits before every invocation reads them.
  barrier();
  return ~s_skipped & ((1u << PASSES) - 1u);
}

// s_next = each digit's first place in the segment for pass p: the exclusive prefix of its counts.
void place_digits(uint p) {
  const uint first = gl_LocalInvocationIndex * DIGITS_PER_INVOCATION;
  uint sum = 0u;
  for (uint r = 0u; r < DIGITS_PER_INVOCATION; ++r) {
    if (first + r < RADIX) sum += s_counts[p * RADIX + first + r];
  }
  uint total;
  uint running = workgroup_exclusive_add(sum, total);
  for (uint r = 0u; r < DIGITS_PER_INVOCATION; ++r) {
    if (first + r < RADIX) {
      s_next[first + r] = running;
      running += s_counts[p * RADIX + first + r];
    }
  }
}

// The value that goes with the key from position q of the segment that begins at b (pairs).
uvec2 copied_value(uint b, uint q) {
  if (OUTPUT != SEG_OUTPUT_PAIRS) return uvec2(0u);
  uvec2 value = uvec2(temp[value_copy_index(b + q)], 0u);
  if (DATA_VALUE_WORDS == 2u) value.y = temp[value_copy_index(b + q) + 1u];
  return value;
}

// Scatters the chunk of keys from position c0 of the segment to their places for pass p, stably:
// to side `to`, or, in the last pass (`last`), as the sort's output. The ranked keys are staged
// in shared memory in order of their places first, so that the stores of a digit's run coalesce.
void scatter_chunk(int side, uint to, uint b, uint n, uint c0, uint p, bool last) {
  for (uint i = gl_LocalInvocationIndex; i < MAX_SUBGROUPS * RADIX; i += WG) s_work[i] = 0u;
  // Orders the counters' zeroing (and the previous chunk's reads of the staged keys) before the ranking.
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
  uint staged[ITEMS];  // each key's rank in the chunk: its place among the staged keys
  [[unroll]] for (uint k = 0u; k < ITEMS; ++k) staged[k] = s_work[gl_SubgroupID * RADIX + digit[k]] + rank[k];
  // Orders every read of the counters before the staging overwrites them.
  barrier();
  [[unroll]] for (uint k = 0u; k < ITEMS; ++k) {
    if (first + k * gl_SubgroupSize < n) {
      s_work[staged[k]] = key[k].x;
      if (DATA_KEY_WORDS == 2u) s_work[TILE + staged[k]] = key[k].y;
      if (CARRIES_INDEX) s_work[DATA_KEY_WORDS * TILE + staged[k]] = q[k];
    }
  }
  // Orders the staging before the reads in place order, which take other invocations' keys.
  barrier();
  // Keys with stand-ins past n rank last (digit RADIX - 1, in position order): the chunk's keys
  // hold places [0, valid). Consecutive invocations store consecutive places, which are
  // consecutive addresses within each digit's run.
  const uint valid = min(TILE, n - c0);
  for (uint at = gl_LocalInvocationIndex; at < valid; at += WG) {
    const uvec2 k = uvec2(s_work[at], DATA_KEY_WORDS == 2u ? s_work[TILE + at] : 0u);
    const uint q = CARRIES_INDEX ? s_work[DATA_KEY_WORDS * TILE + at] : 0u, d = digit_of(k, p);
    const uint place = s_next[d] + at - s_tile_start[d];
    if (last) {
      store_sorted(b, place, k, q, copied_value(b, q));
    } else {
      store_element(to, b + place, k, q);
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
    // Orders the copy before its reads, which other invocations make.
    buffer_barrier();
  }
  const uint passes = count_digits(b, n);
  // A sort of two or more passes writes its output from the last; with one, that pass would
  // overwrite keys that it has yet to read, so its result goes through the temporary.
  const bool direct = bitCount(passes) >= 2;
  int side = -1;
  uint left = bitCount(passes);
  for (uint p = 0u; p < PASSES; ++p) {
    if ((passes & (1u << p)) == 0u) continue;
    const bool last = direct && --left == 0u;
    const uint to = side == 0 ? 1u : 0u;
    place_digits(p);
    for (uint c0 = 0u; c0 < n; c0 += TILE) {
      // Orders the previous chunk's (or place_digits') uses of shared memory before this chunk's.
      barrier();
      scatter_chunk(side, to, b, n, c0, p, last);
    }
    // Orders the pass's writes before the next pass reads them and writes the side it read.
    buffer_barrier();
    side = int(to);
  }
  if (direct) return;
  for (uint i = gl_LocalInvocationIndex; i < n; i += WG) {
    uvec2 key;
    uint q;
    load_element(side, b, b + i, key, q);
    store_sorted(b, i, key, q, copied_value(b, q));
  }
}
