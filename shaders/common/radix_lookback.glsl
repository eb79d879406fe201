// The decoupled look-back of a radix digit pass: tickets, the two alternating look-back tables,
// a tile's published counts and prefixes, and the walk back over earlier tiles. Reads and writes
// the state buffer's tickets and look-back words, and the tile's digit offsets (s_offset).
// Included by radix_scatter.glsl, which declares the bindings, shared variables and constants.
#ifndef VKC_RADIX_LOOKBACK_GLSL
#define VKC_RADIX_LOOKBACK_GLSL

// Look-back words: FLAG_AGGREGATE | count << 2 (this tile alone), FLAG_INCLUSIVE | prefix << 2
// (the digit's offset in the pass's output plus its count in this and every earlier tile: one
// past the tile's last key of that digit), 0 while unpublished. Hence counts below 2^30
// (radix.cpp checks).
const uint FLAG_AGGREGATE = 1u;
const uint FLAG_INCLUSIVE = 2u;

// Look-back: a tile waits only on earlier tiles, so each must be ranked by a workgroup that is
// already running, or the look-back could wait on a workgroup that never starts. With TICKETS the
// tiles are numbered in the order workgroups take a ticket (a global atomic, taken first thing so
// that its round trip overlaps the loads of the pass flags and the count and the zeroing of the
// counters), which guarantees it anywhere. Without, tile t is workgroup t, which relies on the
// device starting a dispatch's workgroups in index order, as NVIDIA's do (radix.cpp); it saves
// the ticket's round trip at the start of every tile.
const bool TICKETED = SCAN_MODE == SCAN_LOOKBACK && TICKETS;

void take_ticket() {
  if (TICKETED && gl_LocalInvocationIndex == 0u) s_tile = atomicAdd(state[STATE_TICKETS + pc.pass], 1u);
}

// The tile this workgroup ranks, once a barrier has ordered take_ticket's store before the read.
uint ticket_tile() { return TICKETED ? s_tile : linear_workgroup_id(); }

// The look-back word of (tile, digit) in a table: running passes alternate between two tables,
// as they alternate between reading the A and the B buffers (table 1 for passes reading B).
uint lookback_table;  // this pass's table, set once by main

uint lookback_index(uint table, uint tile, uint digit) { return STATE_TILES + (table * pc.tiles + tile) * RADIX + digit; }

// Zeroes this workgroup's slot of the table the next running pass uses, last used by the
// previous running pass (whose reads the barrier between the dispatches ordered before this);
// the first running pass uses table 0, which the sort zeroed. The grid has one workgroup per
// slot, so the whole table is cleared.
void clear_next_table(uint table) {
  const uint slot = linear_workgroup_id();
  if (slot >= pc.tiles) return;
  for (uint d = gl_LocalInvocationIndex; d < RADIX; d += WG) state[lookback_index(table ^ 1u, slot, d)] = 0u;
}

// Look-back words are device-scope atomics with relaxed ordering: a word carries its count
// itself and guards no other data, so no acquire or release is needed, and acquire loads are
// costly on GPUs (docs/perf-notes.md#radix-look-back-window).
void publish(uint tile, uint digit, uint word) {
  atomicStore(state[lookback_index(lookback_table, tile, digit)], word, gl_ScopeQueueFamily, 0, 0);
}

uint lookback_word(uint tile, uint digit) {
  return atomicLoad(state[lookback_index(lookback_table, tile, digit)], gl_ScopeQueueFamily, 0, 0);
}

// One step of decoupled look-back for one digit: reads the words of the LOOKBACK_WINDOW tiles
// before `next` at once (their loads are in flight together) and, nearest first, adds each
// published count to `exclusive` until a word carries an inclusive prefix (then next = 0) or a
// tile has not published yet (the next step reads again from there).
void look_back_step(uint digit, inout uint next, inout uint exclusive) {
  uint words[LOOKBACK_WINDOW];
  [[unroll]] for (uint j = 0u; j < LOOKBACK_WINDOW; ++j) {
    words[j] = next > j ? lookback_word(next - 1u - j, digit) : FLAG_INCLUSIVE;
  }
  bool unpublished = false;
  [[unroll]] for (uint j = 0u; j < LOOKBACK_WINDOW; ++j) {
    const uint flag = words[j] & 3u;
    if (unpublished || next == 0u) continue;
    unpublished = flag == 0u;
    if (flag != 0u) {
      exclusive += words[j] >> 2u;
      next = flag == FLAG_INCLUSIVE ? 0u : next - 1u;
    }
  }
}

// The first output index of digit d in this pass: the histogram's count of smaller digits.
uint digit_offset(uint d) { return state[STATE_OFFSETS + pc.pass * RADIX + d]; }

// The digit's keys in every earlier tile are counted: `exclusive` is the digit's first output
// index in this tile, since inclusive prefixes are absolute (tile 0 publishes the digit's offset
// plus its count, publish_count). Publishes this tile's inclusive prefix (tile 0 did with its
// counts) and the digit's global offset for the scatter. Only tile 0 reads the histogram's
// offsets: every other tile would wait one more round trip to L2 for them here, after its walk.
// With AGGREGATES_ONLY (a test setting) no tile but tile 0 publishes an inclusive prefix, so that
// every walk goes back to tile 0 over many windows, as long walks do on a loaded GPU.
void resolve_digit(uint tile, uint d, uint exclusive) {
  const uint start = s_tile_start[d];
  if (tile != 0u && !AGGREGATES_ONLY) {
    const uint count = (d + 1u < RADIX ? s_tile_start[d + 1u] : s_valid) - start;
    publish(tile, d, FLAG_INCLUSIVE | ((exclusive + count) << 2u));
  } else if (tile == 0u) {
    exclusive = digit_offset(d);
  }
  s_offset[d] = exclusive - start;
}

// Look-back on GPUs: each invocation walks back for its digits, stepping while any lane of its
// subgroup still walks (a loop uniform within the subgroup).
void look_back_spinning(uint tile, uint lid) {
  for (uint r = 0u; r < DIGITS_PER_INVOCATION; ++r) {
    const uint d = lid + r * WG;
    uint next = tile != 0u && d < RADIX ? tile : 0u;  // the tile to read is next - 1; 0 when done
    uint exclusive = 0u;
    while (subgroupAny(next != 0u)) {
      if (next != 0u) look_back_step(d, next, exclusive);
    }
    if (d < RADIX) resolve_digit(tile, d, exclusive);
  }
}

// Look-back on CPU devices: one step per digit per round, every round ending in a workgroup
// barrier, until no invocation waits. lavapipe (Mesa 22.3) cannot run the spinning form: its
// JIT ends any loop after 65,535 iterations, which a wait for another CPU thread can exceed,
// and the walk then ends with a wrong count (docs/perf-notes.md#radix-on-cpu-devices).
void look_back_rounds(uint tile, uint lid) {
  uint next[DIGITS_PER_INVOCATION];
  uint exclusive[DIGITS_PER_INVOCATION];
  for (uint r = 0u; r < DIGITS_PER_INVOCATION; ++r) {
    const uint d = lid + r * WG;
    next[r] = tile != 0u && d < RADIX ? tile : 0u;
    exclusive[r] = 0u;
    if (tile == 0u && d < RADIX) resolve_digit(tile, d, 0u);
  }
  if (lid < 3u) s_waiting[lid] = 0u;
  // Orders the zeroing of the waiting counters before the first round counts into them.
  barrier();
  for (uint round = 0u;; ++round) {
    bool waiting = false;
    for (uint r = 0u; r < DIGITS_PER_INVOCATION; ++r) {
      if (next[r] == 0u) continue;
      look_back_step(lid + r * WG, next[r], exclusive[r]);
      if (next[r] == 0u) resolve_digit(tile, lid + r * WG, exclusive[r]);
      waiting = waiting || next[r] != 0u;
    }
    if (waiting) atomicAdd(s_waiting[round % 3u], 1u);
    // Orders this round's waiting counts before they are read.
    barrier();
    if (s_waiting[round % 3u] == 0u) break;
    // Three slots: slot (round + 2) % 3 was last read before the barrier above, and is next
    // counted into after the next round's barrier, which orders this zeroing before that.
    if (lid == 0u) s_waiting[(round + 2u) % 3u] = 0u;
  }
}

#endif
