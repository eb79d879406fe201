// The staging layer of a radix digit pass: the tile's keys (each word of split keys in turn) and
// values are written to shared memory in rank order, in STAGING_ROUNDS rounds, and stored from
// there, so that the global writes of one digit are contiguous. Reads and writes s_work; writes
// the other buffer pair through radix_scatter.glsl's stores.
// Included by radix_scatter.glsl, which declares the bindings, shared variables and stores.
#ifndef VKC_RADIX_STAGE_GLSL
#define VKC_RADIX_STAGE_GLSL

// Staging rounds: the tile's ranks are split into STAGING_ROUNDS consecutive ranges of
// ROUND_TILE, and each range is staged and scattered in turn through ROUND_TILE words of
// s_work, so that a tile needs 1 / STAGING_ROUNDS of the shared memory of one round. ITEMS is
// a multiple of STAGING_ROUNDS (radix.cpp), and scatter slot i of round r is staging word i -
// r * ROUND_TILE.
const uint ROUND_ITEMS = ITEMS / STAGING_ROUNDS;
const uint ROUND_TILE = WG * ROUND_ITEMS;

// Stores w[k] in staging plane `plane` for every key k whose rank falls in round `round`.
void stage_round(uint round, uint rank[RANK_WORDS], uint w[ITEMS], uint plane) {
  [[unroll]] for (uint k = 0u; k < ITEMS; ++k) {
    const uint slot = rank_of(rank, k) - round * ROUND_TILE;  // wraps past ROUND_TILE for other rounds
    if (slot < ROUND_TILE) s_work[plane * ROUND_TILE + slot] = w[k];
  }
}

// Stores split key i whose other word every key shares (shared_word): between passes, planar,
// its digit's word alone; in the last pass, whole, the shared word beside it.
void store_beside_shared_word(bool to_b, bool planar, uint i, uint ordered) {
  const uint word = digit_word(pc.pass);
  if (planar) {
    store_key_word(to_b, true, i, word, ordered_key_word(ordered, word));
    return;
  }
#ifdef RADIX_PAIRED_WRITES
  store_key_pair(to_b, i, ordered, shared_value());
#else
  store_key_word(to_b, false, i, word, ordered_key_word(ordered, word));
  store_key_word(to_b, false, i, word ^ 1u, shared_value());
#endif
}

// Scatters the staged keys of round `round`, then the other words of split keys and the
// values, each staged through the same words in turn.
// With RADIX_FULL_TILES, `guarded` says whether the tile may be partial, so that each store
// checks its key's index against `valid`; otherwise every store checks. (A macro, so that the
// plain shader's SPIR-V stays what it was: block order alone can change NVIDIA's code;
// docs/perf-notes.md#radix-full-tile-scatter.)
#ifdef RADIX_FULL_TILES
#define IN_TILE(index) (!guarded || (index) < valid)
void scatter_round(uint round, bool one_word, bool from_b, bool write_planar, uint valid, bool guarded, uint rank[RANK_WORDS],
                   uint other_word[ITEMS], uvec2 value[ITEMS]) {
#else
#define IN_TILE(index) ((index) < valid)
void scatter_round(uint round, bool one_word, bool from_b, bool write_planar, uint valid, uint rank[RANK_WORDS], uint other_word[ITEMS],
                   uvec2 value[ITEMS]) {
#endif
  const uint lid = gl_LocalInvocationIndex;
  uint position[ROUND_ITEMS];
#ifdef RADIX_PAIRED_WRITES
  uint digit_words[ROUND_ITEMS];  // held until the other words are staged, then stored with them
#endif
  if (SPLIT_KEY && one_word) {
    [[unroll]] for (uint k = 0u; k < ROUND_ITEMS; ++k) {
      const uint slot = k * WG + lid;
      const uint i = round * ROUND_TILE + slot;
      const uint ordered = s_work[slot];
      position[k] = s_offset[digit_of(uvec2(ordered), pc.pass)] + i;
      if (IN_TILE(i)) store_beside_shared_word(!from_b, write_planar, position[k], ordered);
    }
  } else [[unroll]] for (uint k = 0u; k < ROUND_ITEMS; ++k) {
    const uint slot = k * WG + lid;
    const uint i = round * ROUND_TILE + slot;  // the key's index in the tile's staged order
    if (SPLIT_KEY) {
      const uint ordered = s_work[slot];
#ifdef RADIX_PAIRED_WRITES
      digit_words[k] = ordered;
#else
      position[k] = s_offset[digit_of(uvec2(ordered), pc.pass)] + i;
      if (IN_TILE(i)) store_key_word(!from_b, write_planar, position[k], digit_word(pc.pass), ordered_key_word(ordered, digit_word(pc.pass)));
#endif
    } else {
      const uvec2 ordered = uvec2(s_work[slot], 0u);
      position[k] = s_offset[digit_of(ordered, pc.pass)] + i;
      if (IN_TILE(i)) store_key(!from_b, position[k], from_ordered_key(ordered));
    }
  }
  if (SPLIT_KEY && !one_word) {
    // Orders every read of the staged digit words before the other words overwrite them.
    barrier();
    stage_round(round, rank, other_word, 0u);
    // Orders the staged other words before the scatter reads them.
    barrier();
    [[unroll]] for (uint k = 0u; k < ROUND_ITEMS; ++k) {
      const uint slot = k * WG + lid;
#ifdef RADIX_PAIRED_WRITES
      const uint i = round * ROUND_TILE + slot;
      position[k] = s_offset[digit_of(uvec2(digit_words[k]), pc.pass)] + i;
      if (IN_TILE(i)) store_key_pair(!from_b, position[k], digit_words[k], s_work[slot]);
#else
      if (IN_TILE(round * ROUND_TILE + slot)) store_key_word(!from_b, write_planar, position[k], digit_word(pc.pass) ^ 1u, s_work[slot]);
#endif
    }
  }
  if (VALUE_WORDS == 0u) return;

  // Orders every read of the staged keys before the values overwrite them.
  barrier();
  uint low[ITEMS], high[ITEMS];
  [[unroll]] for (uint k = 0u; k < ITEMS; ++k) {
    low[k] = value[k].x;
    high[k] = value[k].y;
  }
  stage_round(round, rank, low, 0u);
  if (VALUE_WORDS == 2u) stage_round(round, rank, high, 1u);
  // Orders the staged values before the scatter reads them.
  barrier();
  [[unroll]] for (uint k = 0u; k < ROUND_ITEMS; ++k) {
    const uint slot = k * WG + lid;
    if (IN_TILE(round * ROUND_TILE + slot)) {
      store_value(!from_b, position[k], uvec2(s_work[slot], VALUE_WORDS == 2u ? s_work[ROUND_TILE + slot] : 0u));
    }
  }
}

#ifdef RADIX_INTERLEAVED_PAIRS
// scatter_round for a pass that writes interleaved pairs: each slot's staged key is held (in its
// ordered form) while the values are staged through the same words, and then stored with its value.
// The key's position is found again from its digit at the store instead of being held too, so
// that a round holds as many registers from its first barrier to its last as the planar one.
void scatter_round_as_pairs(uint round, bool from_b, uint valid, uint rank[RANK_WORDS], uvec2 value[ITEMS]) {
  const uint lid = gl_LocalInvocationIndex;
  uint held_key[ROUND_ITEMS];
  [[unroll]] for (uint k = 0u; k < ROUND_ITEMS; ++k) held_key[k] = s_work[k * WG + lid];
  // Orders every read of the staged keys before the values overwrite them.
  barrier();
  uint low[ITEMS];
  [[unroll]] for (uint k = 0u; k < ITEMS; ++k) low[k] = value[k].x;
  stage_round(round, rank, low, 0u);
  // Orders the staged values before the stores read them.
  barrier();
  [[unroll]] for (uint k = 0u; k < ROUND_ITEMS; ++k) {
    const uint slot = k * WG + lid;
    const uint i = round * ROUND_TILE + slot;
    const uvec2 ordered = uvec2(held_key[k], 0u);
    if (i < valid) store_pair(!from_b, s_offset[digit_of(ordered, pc.pass)] + i, uvec2(from_ordered_key(ordered).x, s_work[slot]));
  }
}
#endif

#endif
