// The body of one LSD radix digit pass (sort/radix/scatter and its variants): a tile of
// WG * ITEMS keys is ranked by its 8-bit digit inside the workgroup (subgroup multisplit), its
// digit counts are turned into global positions (decoupled look-back, radix_lookback.glsl; or a
// tile table that scan_tiles computed: reduce-then-scan), and keys and values are scattered through shared memory, in
// STAGING_ROUNDS rounds, so that the global writes of equal digits are contiguous. Stable: equal
// digits keep the input order.
//
// Layers: this file holds the kernel's constants, bindings, loads and stores, and main;
// radix_rank.glsl ranks the keys, radix_lookback.glsl finds the tile's global offsets, and
// radix_stage.glsl stages the ranked keys and values through shared memory and stores them.
//
// Bindings: 0 count (read), 1 keys A, 2 keys B, 3 values A, 4 values B (one pair is read, the
// other written, as PASS_FROM_B says), 5 state (read; look-back words and tickets written).
#ifndef VKC_RADIX_SCATTER_GLSL
#define VKC_RADIX_SCATTER_GLSL

#extension GL_GOOGLE_include_directive : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_vote : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_EXT_control_flow_attributes : require

#include "radix_layout.h"

layout(local_size_x_id = RADIX_SC_WORKGROUP) in;
layout(constant_id = RADIX_SCATTER_ITEMS) const uint ITEMS = 16;
layout(constant_id = RADIX_SCATTER_KEY_WORDS) const uint KEY_WORDS = 1;
layout(constant_id = RADIX_SCATTER_VALUE_WORDS) const uint VALUE_WORDS = 0;
layout(constant_id = RADIX_SCATTER_KEY_KIND) const uint KEY_KIND = 0;
layout(constant_id = RADIX_SCATTER_DESCENDING) const bool DESCENDING = false;
layout(constant_id = RADIX_SCATTER_MAX_SUBGROUPS) const uint MAX_SUBGROUPS = 16;
layout(constant_id = RADIX_SCATTER_SCAN_MODE) const uint SCAN_MODE = SCAN_LOOKBACK;
layout(constant_id = RADIX_SCATTER_SHARED_WORDS) const uint SHARED_WORDS = 4096;
layout(constant_id = RADIX_SCATTER_BALLOT_WORDS) const uint BALLOT_WORDS = 4;
layout(constant_id = RADIX_SCATTER_LOOKBACK_WINDOW) const uint LOOKBACK_WINDOW = 4;
layout(constant_id = RADIX_SCATTER_LOOKBACK_SPIN) const bool LOOKBACK_SPIN = true;
layout(constant_id = RADIX_SCATTER_STAGING_ROUNDS) const uint STAGING_ROUNDS = 1;  // see stage_round
layout(constant_id = RADIX_SCATTER_COPYING) const bool COPYING = false;            // see copy_tile
layout(constant_id = RADIX_SCATTER_PACKED_RANKS) const bool PACKED_RANKS = false;  // see RANK_WORDS
layout(constant_id = RADIX_SCATTER_TICKETS) const bool TICKETS = true;             // see take_ticket
layout(constant_id = RADIX_SCATTER_AGGREGATES_ONLY) const bool AGGREGATES_ONLY = false;  // see resolve_digit
layout(constant_id = RADIX_SCATTER_BIT_RANGE) const bool BIT_RANGE = false;  // see digit_of (radix.glsl)
layout(constant_id = RADIX_SCATTER_ONE_WORD_PATH) const bool ONE_WORD_PATH = false;  // see sort_tile
#ifdef RADIX_NARROW_KEYS
layout(constant_id = RADIX_SCATTER_KEY_BITS) const uint KEY_BITS = 16;  // 8 or 16
layout(constant_id = RADIX_SCATTER_EXPONENT) const uint EXPONENT = 0;   // to_ordered_narrow's
#endif

const uint WG = gl_WorkGroupSize.x;
const uint TILE = WG * ITEMS;
const uint DIGITS_PER_INVOCATION = (256u + WG - 1u) / WG;
#define WORKGROUP_SCAN_MAX_SUBGROUPS MAX_SUBGROUPS

#include "grid.glsl"
#include "radix.glsl"
#include "workgroup_scan.glsl"

layout(std430, binding = 0) readonly buffer Count { uint count_value; };
layout(std430, binding = 1) buffer KeysA { uint keys_a[]; };
layout(std430, binding = 2) buffer KeysB { uint keys_b[]; };
layout(std430, binding = 3) buffer ValuesA { uint values_a[]; };
layout(std430, binding = 4) buffer ValuesB { uint values_b[]; };
layout(std430, binding = 5) buffer State { uint state[]; };
#ifdef RADIX_NARROW_KEYS
// The same key buffers, KEY_BITS at a time: narrow keys are loaded and stored as they are kept.
layout(std430, binding = 1) buffer Keys16A { uint16_t keys16_a[]; };
layout(std430, binding = 2) buffer Keys16B { uint16_t keys16_b[]; };
layout(std430, binding = 1) buffer Keys8A { uint8_t keys8_a[]; };
layout(std430, binding = 2) buffer Keys8B { uint8_t keys8_b[]; };
uint narrow_key_a(uint i) { return KEY_BITS == 16u ? uint(keys16_a[i]) : uint(keys8_a[i]); }
uint narrow_key_b(uint i) { return KEY_BITS == 16u ? uint(keys16_b[i]) : uint(keys8_b[i]); }
#define STORED_KEY(from_b, i) ((from_b) ? narrow_key_b(i) : narrow_key_a(i))
#else
#define STORED_KEY(from_b, i) ((from_b) ? keys_b[i] : keys_a[i])
#endif
#ifdef RADIX_PAIRED_WRITES
// The same key buffers, a 64-bit key at a time (the host binds them at an 8-byte offset).
layout(std430, binding = 1) buffer KeyPairsA { uvec2 key_pairs_a[]; };
layout(std430, binding = 2) buffer KeyPairsB { uvec2 key_pairs_b[]; };
#endif
#ifdef RADIX_INTERLEAVED_PAIRS
// 32-bit keys with 32-bit values kept interleaved between passes (radix.cpp, interleaved_pairs_from):
// in that layout element i of a buffer pair is one 8-byte (key, value) pair, pair i of the keys
// buffer for i < h = n / 2 (rounded down) and pair i - h of the values buffer for i < 2h, so that
// the caller's two arrays hold the n pairs between them and no second temporary buffer is needed.
// An odd count's last element has a word left in each array: its key goes to the values buffer's
// last word (where its pair would start) and its value to the keys buffer's last word.
// These are views of the same bindings (the host binds them at 8-byte offsets). PAIR_ROLE fixes
// the pass's layouts when the pipeline is made, as a choice at run time costs occupancy
// (docs/perf-notes.md#radix-interleaved-pairs).
layout(constant_id = RADIX_SCATTER_PAIR_ROLE) const uint PAIR_ROLE = PAIR_ROLE_PAIRS;
layout(std430, binding = 1) buffer PairsInKeysA { uvec2 pairs_in_keys_a[]; };
layout(std430, binding = 2) buffer PairsInKeysB { uvec2 pairs_in_keys_b[]; };
layout(std430, binding = 3) buffer PairsInValuesA { uvec2 pairs_in_values_a[]; };
layout(std430, binding = 4) buffer PairsInValuesB { uvec2 pairs_in_values_b[]; };

const bool read_pairs = PAIR_ROLE != PAIR_ROLE_TO_PAIRS;
const bool write_pairs = PAIR_ROLE != PAIR_ROLE_FROM_PAIRS;
uint pairs_in_keys = 0u;  // h = n / 2: the pairs each keys buffer holds (set once by main)

// Word `word` (0 the key, 1 the value) of element i, interleaved.
uint paired_word(bool from_b, uint i, uint word) {
  if (i < pairs_in_keys) return from_b ? keys_b[2u * i + word] : keys_a[2u * i + word];
  const uint j = i - pairs_in_keys;
  if (word == 1u && j == pairs_in_keys) return from_b ? keys_b[2u * j] : keys_a[2u * j];  // an odd count's last value
  return from_b ? values_b[2u * j + word] : values_a[2u * j + word];
}

// Word `word` of elements first + k * stride (clamped to last) for every k, interleaved. Each
// subgroup's run of elements lies in one buffer but in the one run that holds the split, so the
// buffer is chosen once per run there rather than per element
// (docs/perf-notes.md#radix-interleaved-pairs).
void load_paired_words(bool from_b, uint first, uint stride, uint last, uint word, out uint raw[ITEMS]) {
  const uint top = min(first + (ITEMS - 1u) * stride, last);
  if (top < pairs_in_keys) {
    if (from_b) {
      [[unroll]] for (uint k = 0u; k < ITEMS; ++k) raw[k] = keys_b[2u * min(first + k * stride, last) + word];
    } else {
      [[unroll]] for (uint k = 0u; k < ITEMS; ++k) raw[k] = keys_a[2u * min(first + k * stride, last) + word];
    }
    return;
  }
  if (first >= pairs_in_keys && top < 2u * pairs_in_keys) {
    if (from_b) {
      [[unroll]] for (uint k = 0u; k < ITEMS; ++k) raw[k] = values_b[2u * (min(first + k * stride, last) - pairs_in_keys) + word];
    } else {
      [[unroll]] for (uint k = 0u; k < ITEMS; ++k) raw[k] = values_a[2u * (min(first + k * stride, last) - pairs_in_keys) + word];
    }
    return;
  }
  [[unroll]] for (uint k = 0u; k < ITEMS; ++k) raw[k] = paired_word(from_b, min(first + k * stride, last), word);
}

// load_paired_words in the form load_keys and load_values give their words (.y zero).
void load_paired_elements(bool from_b, uint first, uint stride, uint last, uint word, out uvec2 raw[ITEMS]) {
  uint w[ITEMS];
  load_paired_words(from_b, first, stride, last, word, w);
  [[unroll]] for (uint k = 0u; k < ITEMS; ++k) raw[k] = uvec2(w[k], 0u);
}

void store_pair(bool to_b, uint i, uvec2 pair) {
  const uint j = i - pairs_in_keys;
  if (to_b) {
    if (i < pairs_in_keys) {
      pairs_in_keys_b[i] = pair;
    } else if (j < pairs_in_keys) {
      pairs_in_values_b[j] = pair;
    } else {  // an odd count's last element
      values_b[2u * j] = pair.x;
      keys_b[2u * j] = pair.y;
    }
  } else {
    if (i < pairs_in_keys) {
      pairs_in_keys_a[i] = pair;
    } else if (j < pairs_in_keys) {
      pairs_in_values_a[j] = pair;
    } else {
      values_a[2u * j] = pair.x;
      keys_a[2u * j] = pair.y;
    }
  }
}
#endif
layout(push_constant) uniform Push { RADIX_PASS_PUSH_FIELDS } pc;
uvec2 key_range() { return uvec2(pc.range_low, pc.range_high); }

// Per-subgroup digit counters while ranking; afterwards the staging area of the scatter.
shared uint s_work[SHARED_WORDS];
shared uint s_tile_start[RADIX];  // the tile's digit counts, then their exclusive prefix
shared uint s_offset[RADIX];      // global index of staging position 0 for each digit
shared uint s_tile;
shared uint s_valid;              // keys in this tile (the last tile may be partial)
shared uint s_waiting[3];         // look-back rounds: invocations still waiting, per round (mod 3)

// Loads 32-bit key k of this invocation (tile index first + k * stride) for every k, from the A or B
// buffers. The buffer is chosen once and indices past the count are clamped to the last key, so
// the loads carry no condition and all ITEMS of them can be in flight together.
void load_keys(bool from_b, uint first, uint stride, uint last, out uvec2 raw[ITEMS]) {
#ifdef RADIX_INTERLEAVED_PAIRS
  if (read_pairs) {
    load_paired_elements(from_b, first, stride, last, 0u, raw);
    return;
  }
#endif
#ifdef RADIX_NARROW_KEYS
  if (from_b) {
    [[unroll]] for (uint k = 0u; k < ITEMS; ++k) raw[k] = uvec2(narrow_key_b(min(first + k * stride, last)), 0u);
  } else {
    [[unroll]] for (uint k = 0u; k < ITEMS; ++k) raw[k] = uvec2(narrow_key_a(min(first + k * stride, last)), 0u);
  }
  return;
#endif
  if (from_b) {
    [[unroll]] for (uint k = 0u; k < ITEMS; ++k) {
      const uint i = min(first + k * stride, last);
      raw[k] = uvec2(keys_b[i], 0u);
    }
  } else {
    [[unroll]] for (uint k = 0u; k < ITEMS; ++k) {
      const uint i = min(first + k * stride, last);
      raw[k] = uvec2(keys_a[i], 0u);
    }
  }
}

uint key_count;  // the keys this sort sorts, set once by main

// Split keys one of whose words every key has (radix_prepare.glsl, plan_shared_word): the word's
// index (2: neither) and its value as stored, read from the state where they are needed (the
// passes move the other word alone: see sort_tile).
uint shared_word() {
  const uint info = state[STATE_PASS_INFO + pc.pass];
  if (!ONE_WORD_PATH || !SPLIT_KEY || (info & (PASS_SHARED_LOW | PASS_SHARED_HIGH)) == 0u) return 2u;
  return (info & PASS_SHARED_LOW) != 0u ? 0u : 1u;
}
uint shared_value() { return state[STATE_SHARED_WORD]; }

// Word `word` of the split key at index first + k * stride for every k, clamped as load_keys.
void load_key_word(bool from_b, bool planar, uint first, uint stride, uint last, uint word, out uint raw[ITEMS]) {
  if (from_b) {
    [[unroll]] for (uint k = 0u; k < ITEMS; ++k) raw[k] = keys_b[key_word_index(min(first + k * stride, last), word, planar, key_count)];
  } else {
    [[unroll]] for (uint k = 0u; k < ITEMS; ++k) raw[k] = keys_a[key_word_index(min(first + k * stride, last), word, planar, key_count)];
  }
}

void store_key_word(bool to_b, bool planar, uint i, uint word, uint w) {
  if (to_b) {
    keys_b[key_word_index(i, word, planar, key_count)] = w;
  } else {
    keys_a[key_word_index(i, word, planar, key_count)] = w;
  }
}

#ifdef RADIX_PAIRED_WRITES
// Stores split key i in the interleaved layout with one 8-byte store: `ordered` is the ordered
// form of the word that holds the pass's digit, `other` the other word as it is stored.
void store_key_pair(bool to_b, uint i, uint ordered, uint other) {
  const uint word = digit_word(pc.pass);
  const uint raw = ordered_key_word(ordered, word);
  const uvec2 key = word == 1u ? uvec2(other, raw) : uvec2(raw, other);
  if (to_b) {
    key_pairs_b[i] = key;
  } else {
    key_pairs_a[i] = key;
  }
}
#endif

void store_key(bool to_b, uint i, uvec2 k) {
#ifdef RADIX_NARROW_KEYS
  if (KEY_BITS == 16u) {
    if (to_b) {
      keys16_b[i] = uint16_t(k.x);
    } else {
      keys16_a[i] = uint16_t(k.x);
    }
  } else if (to_b) {
    keys8_b[i] = uint8_t(k.x);
  } else {
    keys8_a[i] = uint8_t(k.x);
  }
  return;
#endif
  if (to_b) {
    keys_b[i] = k.x;
  } else {
    keys_a[i] = k.x;
  }
}

void load_values(bool from_b, uint first, uint stride, uint last, out uvec2 raw[ITEMS]) {
#ifdef RADIX_INTERLEAVED_PAIRS
  if (read_pairs) {
    load_paired_elements(from_b, first, stride, last, 1u, raw);
    return;
  }
#endif
  if (from_b) {
    [[unroll]] for (uint k = 0u; k < ITEMS; ++k) {
      const uint i = min(first + k * stride, last);
      raw[k] = uvec2(values_b[i * VALUE_WORDS], VALUE_WORDS == 2u ? values_b[i * 2u + 1u] : 0u);
    }
  } else {
    [[unroll]] for (uint k = 0u; k < ITEMS; ++k) {
      const uint i = min(first + k * stride, last);
      raw[k] = uvec2(values_a[i * VALUE_WORDS], VALUE_WORDS == 2u ? values_a[i * 2u + 1u] : 0u);
    }
  }
}

void store_value(bool to_b, uint i, uvec2 v) {
  if (to_b) {
    values_b[i * VALUE_WORDS] = v.x;
    if (VALUE_WORDS == 2u) values_b[i * 2u + 1u] = v.y;
  } else {
    values_a[i * VALUE_WORDS] = v.x;
    if (VALUE_WORDS == 2u) values_a[i * 2u + 1u] = v.y;
  }
}

#include "radix_rank.glsl"
#include "radix_lookback.glsl"
#include "radix_stage.glsl"

#ifdef RADIX_NARROW_KEYS
// copy_tile's keys when they are narrow: a word at a time (a byte or a half an invocation would
// use a quarter or a half of each load), and the keys after the last whole word one at a time,
// so that the bytes past the last key stay as they were. A tile is whole words (WG is a multiple
// of 4), so the tail lies in one tile.
void copy_narrow_keys(bool from_b, uint n) {
  const uint per_word = 32u / KEY_BITS;
  const uint tile_words = TILE / per_word;
  const uint whole = n / per_word;  // words wholly inside the count
  const uint group = linear_workgroup_id();
  const uint first = group * tile_words + gl_LocalInvocationIndex;
  const uint end = min((group + 1u) * tile_words, whole);
  const uint last = max(whole, 1u) - 1u;  // a buffer holds at least one word
  uint w[ITEMS];  // the first ceil(ITEMS / per_word) of them
  [[unroll]] for (uint k = 0u; k < ITEMS; ++k) {
    if (k * per_word < ITEMS) w[k] = from_b ? keys_b[min(first + k * WG, last)] : keys_a[min(first + k * WG, last)];
  }
  [[unroll]] for (uint k = 0u; k < ITEMS; ++k) {
    const uint word = first + k * WG;
    if (k * per_word >= ITEMS || word >= end) break;
    if (from_b) {
      keys_a[word] = w[k];
    } else {
      keys_b[word] = w[k];
    }
  }
  const uint tail = whole * per_word;
  const uint i = tail + gl_LocalInvocationIndex;
  if (tail / TILE == group && i < n) store_key(!from_b, i, uvec2(STORED_KEY(from_b, i), 0u));
}
#endif

// A pass that prepare marked PASS_COPY (radix_prepare.glsl) moves this workgroup's tile of
// elements to the same indices of the other buffer pair, in the layout the pass writes. Only
// pipelines built with COPYING test for it: the interleaved pairs' pipelines never copy. Every
// load is issued before any store (indices past the count clamped, their stores skipped), so that
// the tile streams instead of waiting on each element's load in turn.
void copy_tile(bool from_b, bool read_planar, bool write_planar, uint n) {
#ifdef RADIX_NARROW_KEYS
  copy_narrow_keys(from_b, n);
  const bool keys_by_element = false;
#else
  const bool keys_by_element = true;
#endif
  const uint first = linear_workgroup_id() * TILE + gl_LocalInvocationIndex;
  uint word[2][ITEMS];  // a split key's two words; word[0] alone otherwise
  const uint shared_index = shared_word();
  if (SPLIT_KEY) {
    [[unroll]] for (uint w = 0u; w < 2u; ++w) {
      if (w != shared_index) {
        load_key_word(from_b, read_planar, first, WG, n - 1u, w, word[w]);
      } else {
        [[unroll]] for (uint k = 0u; k < ITEMS; ++k) word[w][k] = shared_value();
      }
    }
  } else if (keys_by_element && from_b) {
    [[unroll]] for (uint k = 0u; k < ITEMS; ++k) word[0][k] = STORED_KEY(true, min(first + k * WG, n - 1u));
  } else if (keys_by_element) {
    [[unroll]] for (uint k = 0u; k < ITEMS; ++k) word[0][k] = STORED_KEY(false, min(first + k * WG, n - 1u));
  }
  uvec2 value[ITEMS];
  if (VALUE_WORDS != 0u) {
    [[unroll]] for (uint k = 0u; k < ITEMS; ++k) {
      const uint from = min(first + k * WG, n - 1u) * VALUE_WORDS;
      value[k] = from_b ? uvec2(values_b[from], values_b[from + VALUE_WORDS - 1u]) : uvec2(values_a[from], values_a[from + VALUE_WORDS - 1u]);
    }
  }
  [[unroll]] for (uint k = 0u; k < ITEMS; ++k) {
    const uint i = first + k * WG;
    if (i >= n) break;
    if (SPLIT_KEY) {
      // A shared word is not kept planar: the last pass writes it.
      if (!write_planar || shared_index != 0u) store_key_word(!from_b, write_planar, i, 0u, word[0][k]);
      if (!write_planar || shared_index != 1u) store_key_word(!from_b, write_planar, i, 1u, word[1][k]);
    } else if (keys_by_element) {
      store_key(!from_b, i, uvec2(word[0][k], 0u));
    }
    if (VALUE_WORDS != 0u) store_value(!from_b, i, value[k]);
  }
}

// This invocation's keys of the tile in their ordered form: key k is the tile's key run + k *
// subgroup size; keys past the tile's `valid` ones stand in as the largest key, so that they rank
// last. A split key gives the word that holds the pass's digit, in both halves, so that
// digit_of() finds it in either pass half.
void load_ordered_keys(bool from_b, bool read_planar, uint tile_base, uint run, uint valid, uint n, out uvec2 key[ITEMS]) {
  if (SPLIT_KEY) {
    uint word[ITEMS];
    load_key_word(from_b, read_planar, tile_base + run, gl_SubgroupSize, n - 1u, digit_word(pc.pass), word);
    [[unroll]] for (uint k = 0u; k < ITEMS; ++k) {
      key[k] = uvec2(run + k * gl_SubgroupSize < valid ? ordered_key_word(word[k], digit_word(pc.pass)) : ORDERED_KEY_MAX.x);
    }
  } else {
    load_keys(from_b, tile_base + run, gl_SubgroupSize, n - 1u, key);
    [[unroll]] for (uint k = 0u; k < ITEMS; ++k) {
      key[k] = run + k * gl_SubgroupSize < valid ? to_ordered_key(key[k]) : ORDERED_KEY_MAX;
    }
  }
}

#ifdef RADIX_FULL_TILES
// The same for a full tile: every index holds a key, so the loads need no clamp and no key a
// stand-in. (load_keys with no bound to clamp to would still leave a min per load in the SPIR-V.)
void load_full_tile_keys(bool from_b, bool read_planar, uint tile_base, uint run, uint n, out uvec2 key[ITEMS]) {
  const uint first = tile_base + run;
  const uint word = digit_word(pc.pass);
  uint raw[ITEMS];
#ifdef RADIX_NARROW_KEYS
  if (from_b) {
    [[unroll]] for (uint k = 0u; k < ITEMS; ++k) raw[k] = narrow_key_b(first + k * gl_SubgroupSize);
  } else {
    [[unroll]] for (uint k = 0u; k < ITEMS; ++k) raw[k] = narrow_key_a(first + k * gl_SubgroupSize);
  }
#else
  if (from_b) {
    [[unroll]] for (uint k = 0u; k < ITEMS; ++k) raw[k] = keys_b[SPLIT_KEY ? key_word_index(first + k * gl_SubgroupSize, word, read_planar, n) : first + k * gl_SubgroupSize];
  } else {
    [[unroll]] for (uint k = 0u; k < ITEMS; ++k) raw[k] = keys_a[SPLIT_KEY ? key_word_index(first + k * gl_SubgroupSize, word, read_planar, n) : first + k * gl_SubgroupSize];
  }
#endif
  [[unroll]] for (uint k = 0u; k < ITEMS; ++k) key[k] = SPLIT_KEY ? uvec2(ordered_key_word(raw[k], word)) : to_ordered_key(uvec2(raw[k], 0u));
}
#endif

// Publishes the tile's count of digit d for the look-back (`count` includes the stand-ins past
// the tile's valid keys, which all have the last digit), and returns the count without them.
// Tile 0 publishes its inclusive prefix at once, absolute as resolve_digit expects.
uint publish_count(uint tile, uint d, uint count, uint valid) {
  if (d == RADIX - 1u) count -= TILE - valid;  // the stand-ins past the count are not keys
  if (SCAN_MODE == SCAN_LOOKBACK) {
    publish(tile, d, tile == 0u ? FLAG_INCLUSIVE | ((digit_offset(d) + count) << 2u) : FLAG_AGGREGATE | (count << 2u));
  }
  return count;
}

// Ranks each digit's keys across subgroups and digits and publishes the tile's digit counts; on
// return s_work[counters + d] + a key's rank in its subgroup is its rank in the tile,
// s_tile_start[d] is the tile's first rank of d, and every invocation may read them.
void scan_tile_counts(uint tile, uint valid) {
  const uint lid = gl_LocalInvocationIndex;
  for (uint r = 0u; r < DIGITS_PER_INVOCATION; ++r) {
    const uint d = lid + r * WG;
    const uint count = subgroup_total(d);
    if (d < RADIX) s_tile_start[d] = publish_count(tile, d, count, valid);
  }
  // Orders the digit counts' stores before their scan reads them.
  barrier();
  scan_tile_digits();
  // Orders the scanned digit starts and the subgroups' first ranks before the ranks read them.
  barrier();
}

// Ranks this workgroup's tile, finds its global offsets and scatters it. `one_word` (a constant at
// each call, which the SPIR-V optimizer inlines and folds): split keys whose other word every key
// shares, which load, stage and store their digit's word alone. Two copies of the steps rather
// than a branch inside them: the branch cost the 64-bit passes 25 registers and their second
// workgroup per SM (docs/perf-notes.md#radix-shared-words).
void sort_tile(uint n, uint info, bool one_word) {
  const bool from_b = (info & PASS_FROM_B) != 0u;
  const bool read_planar = (info & PASS_READ_PLANAR) != 0u;
  const bool write_planar = (info & PASS_WRITE_PLANAR) != 0u;
  const uint lid = gl_LocalInvocationIndex;
  for (uint i = lid; i < MAX_SUBGROUPS * RADIX; i += WG) s_work[i] = 0u;
  // Orders the ticket's store before every invocation reads it, and the zeroing of the counters
  // before the ranking updates them.
  barrier();
  const uint tile = ticket_tile();
  if (tile >= pc.tiles || tile * TILE >= n) return;
  const uint tile_base = tile * TILE;
  const uint valid = min(TILE, n - tile_base);
  if (lid == 0u) s_valid = valid;
  // Tile-table modes, 32-bit keys alone: this tile's global digit offsets are loaded now, so that
  // their round trip overlaps the ranking instead of following the staging; with values or split
  // keys the registers they hold cost more than that saves (docs/perf-notes.md#radix-scan).
  const bool early_table = SCAN_MODE != SCAN_LOOKBACK && VALUE_WORDS == 0u && !SPLIT_KEY;
  uint table_offset[DIGITS_PER_INVOCATION];
  if (early_table) {
    for (uint r = 0u; r < DIGITS_PER_INVOCATION; ++r) {
      const uint d = lid + r * WG;
      table_offset[r] = d < RADIX ? state[pc.table + d * pc.tiles + tile] : 0u;
    }
  }

  // Subgroup s takes the keys [s * size * ITEMS, (s + 1) * size * ITEMS) of the tile; item k of
  // lane l is key k * size + l of that run, so each load of the subgroup is contiguous and the
  // ranking below visits the keys in input order.
  const uint run = gl_SubgroupID * gl_SubgroupSize * ITEMS + gl_SubgroupInvocationID;
  const uint counters = gl_SubgroupID * RADIX;
  const uvec4 lanes = subgroupBallot(true);
  uvec2 key[ITEMS];
  uint rank[RANK_WORDS];
  uint other_word[ITEMS];  // entries past the count are never stored
#ifdef RADIX_FULL_TILES
  if (valid == TILE) {  // uniform: no clamps, no stand-ins
    load_full_tile_keys(from_b, read_planar, tile_base, run, n, key);
  } else {
    load_ordered_keys(from_b, read_planar, tile_base, run, valid, n, key);
  }
#else
  load_ordered_keys(from_b, read_planar, tile_base, run, valid, n, key);
#endif
  [[unroll]] for (uint r = 0u; r < RANK_WORDS; ++r) rank[r] = 0u;
  [[unroll]] for (uint k = 0u; k < ITEMS; ++k) add_to_rank(rank, k, subgroup_rank(digit_of(key[k], pc.pass), counters, lanes));
  // Orders every subgroup's counter updates before the per-digit scan over subgroups reads them.
  barrier();
  scan_tile_counts(tile, valid);
  [[unroll]] for (uint k = 0u; k < ITEMS; ++k) add_to_rank(rank, k, s_work[counters + digit_of(key[k], pc.pass)]);
  // Orders every read of the counters before the staging below overwrites them.
  barrier();
  uint word[ITEMS];  // the staged key words: split 64-bit keys move one word at a time
  [[unroll]] for (uint k = 0u; k < ITEMS; ++k) word[k] = key[k].x;
  stage_round(0u, rank, word, 0u);
  // The loads of the split keys' other words and of the values are issued before the look-back,
  // whose waiting hides their latency (the first round's keys are staged by now, so their
  // registers are free).
  if (SPLIT_KEY && !one_word) load_key_word(from_b, read_planar, tile_base + run, gl_SubgroupSize, n - 1u, digit_word(pc.pass) ^ 1u, other_word);
  uvec2 value[ITEMS];
  if (VALUE_WORDS != 0u) load_values(from_b, tile_base + run, gl_SubgroupSize, n - 1u, value);
  if (SCAN_MODE == SCAN_LOOKBACK) {
    if (LOOKBACK_SPIN) {
      look_back_spinning(tile, lid);
    } else {
      look_back_rounds(tile, lid);
    }
  } else {
    for (uint r = 0u; r < DIGITS_PER_INVOCATION; ++r) {
      const uint d = lid + r * WG;
      if (d < RADIX) s_offset[d] = (early_table ? table_offset[r] : state[pc.table + d * pc.tiles + tile]) - s_tile_start[d];
    }
  }
  [[unroll]] for (uint round = 0u; round < STAGING_ROUNDS; ++round) {
    if (round != 0u) {
      // Orders every read of the previous round's staging before this round overwrites it.
      barrier();
      stage_round(round, rank, word, 0u);
    }
    // Orders the staged keys (and, before the first round, the digit offsets) before the
    // scatter reads them.
    barrier();
#ifdef RADIX_FULL_TILES
    if (valid == TILE) {  // uniform: two copies, one without guards
      scatter_round(round, one_word, from_b, write_planar, valid, false, rank, other_word, value);
    } else {
      scatter_round(round, one_word, from_b, write_planar, valid, true, rank, other_word, value);
    }
#else
#ifdef RADIX_INTERLEAVED_PAIRS
    if (write_pairs) {
      scatter_round_as_pairs(round, from_b, valid, rank, value);
      continue;
    }
#endif
    scatter_round(round, one_word, from_b, write_planar, valid, rank, other_word, value);
#endif
  }
}

void main() {
  // Skipped passes never get here: prepare gave them no workgroups.
  take_ticket();
  const uint n = min(count_value, pc.max_count);
  key_count = n;
  const uint info = state[STATE_PASS_INFO + pc.pass];
  const bool from_b = (info & PASS_FROM_B) != 0u;
#ifdef RADIX_INTERLEAVED_PAIRS
  pairs_in_keys = n / 2u;
#endif
  lookback_table = from_b ? 1u : 0u;
  if (SCAN_MODE == SCAN_LOOKBACK) clear_next_table(lookback_table);
  if (COPYING && (info & PASS_COPY) != 0u) {  // the same for the whole grid
    copy_tile(from_b, (info & PASS_READ_PLANAR) != 0u, (info & PASS_WRITE_PLANAR) != 0u, n);
    return;
  }
  if (ONE_WORD_PATH && SPLIT_KEY && (info & (PASS_SHARED_LOW | PASS_SHARED_HIGH)) != 0u) {
    sort_tile(n, info, true);
  } else {
    sort_tile(n, info, false);
  }
}

#endif
