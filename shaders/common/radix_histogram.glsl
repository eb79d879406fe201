// The body of sort/radix/histogram and sort/radix/histogram_narrow (see histogram.comp): the
// including shader declares #version and the extensions, and RADIX_NARROW_KEYS for 8- or 16-bit keys.
#ifndef VKC_RADIX_HISTOGRAM_GLSL
#define VKC_RADIX_HISTOGRAM_GLSL

#include "radix_layout.h"

layout(local_size_x_id = RADIX_SC_WORKGROUP) in;
layout(constant_id = RADIX_HISTOGRAM_ITEMS) const uint ITEMS = 16;  // keys per invocation in a chunk of WG * ITEMS
layout(constant_id = RADIX_HISTOGRAM_KEY_WORDS) const uint KEY_WORDS = 1;
layout(constant_id = RADIX_HISTOGRAM_KEY_KIND) const uint KEY_KIND = 0;
layout(constant_id = RADIX_HISTOGRAM_DESCENDING) const bool DESCENDING = false;
layout(constant_id = RADIX_HISTOGRAM_PASSES) const uint PASSES = 4;
layout(constant_id = RADIX_HISTOGRAM_MAX_SUBGROUPS) const uint MAX_SUBGROUPS = 64;
layout(constant_id = RADIX_HISTOGRAM_TILE_TABLE) const bool TILE_TABLE = true;
layout(constant_id = RADIX_HISTOGRAM_DOUBLES) const uint DOUBLES = 0;
layout(constant_id = RADIX_HISTOGRAM_VECTOR_LOADS) const bool VECTOR_LOADS = false;
layout(constant_id = RADIX_HISTOGRAM_INTERLEAVED_PASSES) const bool INTERLEAVED_PASSES = false;  // radix_prepare.glsl
layout(constant_id = RADIX_HISTOGRAM_PAIRED_FROM) const uint PAIRED_FROM = 0;
layout(constant_id = RADIX_HISTOGRAM_BIT_RANGE) const bool BIT_RANGE = false;  // see digit_of (radix.glsl)
layout(constant_id = RADIX_HISTOGRAM_MARK_SHARED_WORDS) const bool MARK_SHARED_WORDS = false;  // see plan_shared_word
#ifdef RADIX_NARROW_KEYS
layout(constant_id = RADIX_HISTOGRAM_KEY_BITS) const uint KEY_BITS = 16;  // 8 or 16
layout(constant_id = RADIX_HISTOGRAM_EXPONENT) const uint EXPONENT = 0;   // to_ordered_narrow's
#endif
#define WORKGROUP_SCAN_MAX_SUBGROUPS MAX_SUBGROUPS

#include "grid.glsl"
#include "radix.glsl"
#include "workgroup_scan.glsl"

layout(std430, binding = 0) readonly buffer Count { uint count_value; };
layout(std430, binding = 1) buffer Keys { uint keys[]; };
// The same keys, 16 bytes at a time (VECTOR_LOADS: the host binds them at a 16-byte offset).
layout(std430, binding = 1) readonly buffer KeyVectors { uvec4 key_vectors[]; };
layout(std430, binding = 2) buffer State { uint state[]; };
layout(push_constant) uniform Push { RADIX_HISTOGRAM_PUSH_FIELDS } pc;
uvec2 key_range() { return uvec2(pc.range_low, pc.range_high); }

const uint WG = gl_WorkGroupSize.x;
const uint CHUNK = WG * ITEMS;
const bool FLOAT_KEYS = KEY_KIND == KEY_KIND_FLOAT;  // a key's round trip through the ordered form may change it
#include "radix_prepare.glsl"

// Every pass's digit counts over the workgroup's chunks; with TILE_TABLE, pass 0's are added
// tile by tile from s_tile_hist.
shared uint s_hist[PASSES * RADIX];
// Pass 0's digit counts of one tile. Two, used by alternate tiles, so that one barrier per tile
// suffices (see count_digits).
shared uint s_tile_hist[2 * RADIX];
shared bool s_last;

// The ordered form of double i, which has the bits `raw`, written back in its place: the passes
// sort it as an unsigned 64-bit integer (kernel_key_type in radix.cpp).
uvec2 order_double(uint i, uvec2 raw) {
  const uvec2 ordered = to_ordered64(raw, KEY_KIND_FLOAT, DOUBLES == 2u);
  keys[i * 2u] = ordered.x;
  keys[i * 2u + 1u] = ordered.y;
  return ordered;
}

// Keys per uvec4 of key_vectors.
const uint VECTOR_KEYS = 4u / KEY_WORDS;

// Loads the chunk's keys of this invocation as VECTOR_LOADS reads them: vector v = chunk start +
// lid + j * WG holds keys VECTOR_KEYS * v onward. Only whole vectors are read here (indices past
// them are clamped and not counted); count_tail takes the keys after the last whole vector.
void load_vectors(uint chunk, uint n, out uvec2 raw[ITEMS], out bool counted[ITEMS]) {
  const uint vectors = n * KEY_WORDS / 4u;
  if (vectors == 0u) {  // fewer keys than a vector holds (uniform): no load may touch the buffer
    [[unroll]] for (uint k = 0u; k < ITEMS; ++k) {
      raw[k] = uvec2(0u);
      counted[k] = false;
    }
    return;
  }
  const uint first = chunk * (CHUNK / VECTOR_KEYS) + gl_LocalInvocationIndex;
  [[unroll]] for (uint j = 0u; j < ITEMS / VECTOR_KEYS; ++j) {
    const uint v = first + j * WG;
    const uvec4 w = key_vectors[min(v, vectors - 1u)];
    [[unroll]] for (uint e = 0u; e < VECTOR_KEYS; ++e) {
      raw[j * VECTOR_KEYS + e] = KEY_WORDS == 1u ? uvec2(w[e], 0u) : uvec2(w[2u * e], w[2u * e + 1u]);
      counted[j * VECTOR_KEYS + e] = v < vectors;
    }
  }
}

#ifdef RADIX_NARROW_KEYS
// The same keys, KEY_BITS at a time.
layout(std430, binding = 1) readonly buffer Keys16 { uint16_t keys16[]; };
layout(std430, binding = 1) readonly buffer Keys8 { uint8_t keys8[]; };

// Key i as it is stored.
uvec2 load_key(uint i) { return uvec2(KEY_BITS == 16u ? uint(keys16[i]) : uint(keys8[i]), 0u); }
#else
// Key i as it is stored (.y is 0 for 32-bit keys).
uvec2 load_key(uint i) { return uvec2(keys[i * KEY_WORDS], KEY_WORDS == 2u ? keys[i * 2u + 1u] : 0u); }
#endif

// Loads key first + k * WG for every k; indices past the count are clamped (and not counted), so
// all loads can be in flight at once.
void load_strided(uint first, uint n, out uvec2 raw[ITEMS], out bool counted[ITEMS]) {
  [[unroll]] for (uint k = 0u; k < ITEMS; ++k) {
    raw[k] = load_key(min(first + k * WG, n - 1u));
    counted[k] = first + k * WG < n;
  }
}

// Counts every pass's digit of one ordered key; pass 0's into s_tile_hist[side * RADIX + digit]
// with TILE_TABLE.
#ifdef RADIX_NARROW_KEYS
// An 8-bit key's second digit is zero (radix.glsl): that pass's histogram, n keys of digit 0, is
// added once (count_digits) rather than key by key into one contended counter.
#define COUNTED_PASSES (KEY_BITS == 8u ? 1u : PASSES)
#else
#define COUNTED_PASSES PASSES
#endif

void count_key(uvec2 ordered, uint side) {
  if (TILE_TABLE) {
    atomicAdd(s_tile_hist[side * RADIX + digit_of(ordered, 0u)], 1u);
  } else {
    atomicAdd(s_hist[digit_of(ordered, 0u)], 1u);
  }
  [[unroll]] for (uint p = 1u; p < COUNTED_PASSES; ++p) atomicAdd(s_hist[p * RADIX + digit_of(ordered, p)], 1u);
}

// Counts the digits of chunk `chunk` into s_hist, pass 0's into s_tile_hist[side * RADIX + digit]
// with TILE_TABLE.
void count_chunk(uint chunk, uint n, uint side) {
  const uint first = chunk * CHUNK + gl_LocalInvocationIndex;
  uvec2 raw[ITEMS];
  bool counted[ITEMS];
  if (VECTOR_LOADS) {
    load_vectors(chunk, n, raw, counted);
  } else {
    load_strided(first, n, raw, counted);
  }
  [[unroll]] for (uint k = 0u; k < ITEMS; ++k) {
    if (counted[k]) count_key(to_ordered_key(DOUBLES != 0u ? order_double(first + k * WG, raw[k]) : raw[k]), side);
  }
}

// With VECTOR_LOADS: counts the keys after the last whole vector (fewer than four), in workgroup 0.
void count_tail(uint n) {
  const uint first = n * KEY_WORDS / 4u * VECTOR_KEYS;
  const uint i = first + gl_LocalInvocationIndex;
  if (linear_workgroup_id() == 0u && i < n) count_key(to_ordered_key(load_key(i)), 0u);
}

// Writes a counted tile's pass-0 counts to the tile table and adds them to s_hist; zeroes them
// for the tile after next, which counts into the same side.
void flush_tile(uint tile, uint side) {
  for (uint d = gl_LocalInvocationIndex; d < RADIX; d += WG) {
    const uint c = s_tile_hist[side * RADIX + d];
    s_tile_hist[side * RADIX + d] = 0u;
    s_hist[d] += c;  // pass 0's entries: no other invocation touches this one
    state[pc.first_table + d * pc.tiles + tile] = c;
  }
}

// Adds the digits of every chunk this workgroup takes (chunks in a grid-stride loop: the grid is
// capped, so that few workgroups pay for the global atomics and the release at the end) to the
// global histogram, with relaxed device-scope atomics. The loop takes the chunks from the last one
// down: whatever wrote the keys front to back (the caller's producer, or its copy of them) left
// their tail in L2, which is read first here, and the head, which pass 0's first tiles read, is
// read last (docs/perf-notes.md#radix-histogram).
void count_digits(uint n) {
  const uint lid = gl_LocalInvocationIndex;
  for (uint i = lid; i < PASSES * RADIX; i += WG) s_hist[i] = 0u;
  for (uint i = lid; i < 2u * RADIX; i += WG) s_tile_hist[i] = 0u;
  // Orders the zeroing before the counting.
  barrier();
  const uint used = n / CHUNK + (n % CHUNK != 0u ? 1u : 0u);  // chunks that hold keys
  const uint groups = gl_NumWorkGroups.x * gl_NumWorkGroups.y;
  uint side = 0u;
  for (uint step = linear_workgroup_id(); step < used; step += groups) {
    const uint chunk = used - 1u - step;
    count_chunk(chunk, n, side);
    if (!TILE_TABLE) continue;
    // Orders this tile's counts before their flush reads them. It also orders the previous
    // tile's flush (the other side, read and zeroed before this barrier) before the next tile
    // counts into that side.
    barrier();
    flush_tile(chunk, side);
    side ^= 1u;
  }
  if (VECTOR_LOADS) count_tail(n);
  // Orders every count (and pass 0's flushed sums) before the workgroup's totals are added to
  // the global histogram.
  barrier();
  for (uint i = lid; i < PASSES * RADIX; i += WG) {
    const uint c = s_hist[i];
    if (c != 0u) atomicAdd(state[STATE_COUNTS + i], c);
  }
#ifdef RADIX_NARROW_KEYS
  if (COUNTED_PASSES < PASSES && linear_workgroup_id() == 0u && lid == 0u) atomicAdd(state[STATE_COUNTS + RADIX], n);
#endif
}

// Zeroes this workgroup's share of look-back table 0, which the first running pass uses (each
// pass zeroes the table of the next one).
void clear_first_table() {
  const uint groups = gl_NumWorkGroups.x * gl_NumWorkGroups.y;
  for (uint i = linear_workgroup_id() * WG + gl_LocalInvocationIndex; i < pc.table_words; i += groups * WG) {
    state[STATE_TILES + i] = 0u;
  }
}

// Whether every other workgroup has added its counts: the last one to finish prepares the
// passes. Uniform over the workgroup.
bool finished_last() {
  // Orders every invocation's histogram additions before invocation 0 announces this
  // workgroup's end with a release (the barrier's acquire-release at device scope makes them
  // happen before it).
  controlBarrier(gl_ScopeWorkgroup, gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsAcquireRelease);
  if (gl_LocalInvocationIndex == 0u) {
    const uint groups = gl_NumWorkGroups.x * gl_NumWorkGroups.y;
    const uint done = atomicAdd(state[STATE_HISTOGRAM_DONE], 1u, gl_ScopeDevice, gl_StorageSemanticsBuffer,
                                gl_SemanticsAcquireRelease);
    // Modulo the grid: where a temporary buffer was wrongly marked clear (a stale count of
    // workgroups done), one workgroup still prepares, finds counts that do not add up and runs
    // no pass (radix_prepare.glsl), so that no pass runs on a stale grid.
    s_last = (done + 1u) % groups == 0u;
  }
  // Shares s_last; in the last workgroup it also orders invocation 0's acquire (which saw every
  // other workgroup's release) before the other invocations read the histogram.
  controlBarrier(gl_ScopeWorkgroup, gl_ScopeDevice, gl_StorageSemanticsBuffer | gl_StorageSemanticsShared,
                 gl_SemanticsAcquireRelease);
  return s_last;
}

void main() {
  const uint n = min(count_value, pc.max_count);
  clear_first_table();
  count_digits(n);
  if (finished_last()) prepare_passes(n, uvec2(pc.grid_x, pc.grid_y));
}

#endif
