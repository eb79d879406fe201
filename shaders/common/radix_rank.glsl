// The ranking layer of a radix digit pass: each key's rank among the tile's keys of its digit,
// found with subgroup ballots (multisplit) and per-subgroup digit counters in s_work, then made
// tile-wide by a scan over digits and subgroups. Reads and writes s_work and s_tile_start.
// Included by radix_scatter.glsl, which declares the shared variables and constants.
#ifndef VKC_RADIX_RANK_GLSL
#define VKC_RADIX_RANK_GLSL

// The lanes of this subgroup whose digit equals `digit` (this lane included), as a ballot;
// `lanes` is the ballot of every lane of the subgroup.
uvec4 same_digit_lanes(uint digit, uvec4 lanes) {
  uvec4 peers = lanes;
  [[unroll]] for (uint b = 0u; b < 8u; ++b) {
    const bool bit = ((digit >> b) & 1u) != 0u;
    const uvec4 vote = subgroupBallot(bit);
    peers &= bit ? vote : ~vote;
  }
  return peers;
}

// The same for subgroups of at most 32 lanes, in one word: a quarter of the ballot arithmetic,
// which the compiler cannot drop by itself since the subgroup size is not known to it. The form of
// each step, `bit ? vote : ~vote`, is the fastest one measured (docs/perf-notes.md#radix-ranking).
uint same_digit_lanes32(uint digit, uint lanes) {
  uint peers = lanes;
  [[unroll]] for (uint b = 0u; b < 8u; ++b) {
    const bool bit = ((digit >> b) & 1u) != 0u;
    const uint vote = subgroupBallot(bit).x;
    peers &= bit ? vote : ~vote;
  }
  return peers;
}

// Rank of this lane's key among the keys of its subgroup with the same digit, counting every
// earlier call too; the subgroup's counters live at s_work[counters + digit]. Every lane reads its
// digit's counter itself, and the digit's lowest lane writes it back. The read needs only the
// digit, so it can be in flight while the ballots run (a leader's read passed on by a shuffle
// waits for both), and the lowest lane, known from the count below it, saves finding the highest
// (docs/perf-notes.md#radix-ranking).
uint subgroup_rank(uint digit, uint counters, uvec4 lanes) {
  uint below, total;
  if (BALLOT_WORDS == 1u) {
    const uint peers = same_digit_lanes32(digit, lanes.x);
    below = bitCount(peers & gl_SubgroupLtMask.x);
    total = bitCount(peers);
  } else {
    const uvec4 peers = same_digit_lanes(digit, lanes);
    below = subgroupBallotExclusiveBitCount(peers);
    total = subgroupBallotBitCount(peers);
  }
  const uint base = s_work[counters + digit];
  // Orders every lane's read of the counter before the update below.
  subgroupBarrier();
  if (below == 0u) s_work[counters + digit] = base + total;
  // Orders the update before the next call's reads, which other lanes of the subgroup make.
  subgroupBarrier();
  return base + below;
}

// A key's rank in its tile, kept from the ranking to the scatter: one per register, or with
// PACKED_RANKS two per register (key k in the low or high half of word k / 2; tiles of at most
// 65,536 keys, radix.cpp checks), which frees ITEMS / 2 registers for larger tiles. Every k a
// caller passes is a constant of an unrolled loop, so the halves are selected at compile time.
const uint RANK_WORDS = PACKED_RANKS ? (ITEMS + 1u) / 2u : ITEMS;

uint rank_of(uint ranks[RANK_WORDS], uint k) {
  return PACKED_RANKS ? (ranks[k >> 1u] >> ((k & 1u) * 16u)) & 0xFFFFu : ranks[k];
}

// Adds to key k's rank; a packed half cannot carry into the other, as every rank stays below 2^16.
void add_to_rank(inout uint ranks[RANK_WORDS], uint k, uint addend) {
  if (PACKED_RANKS) {
    ranks[k >> 1u] += addend << ((k & 1u) * 16u);
  } else {
    ranks[k] += addend;
  }
}

// The tile's count of digit d: the sum of the subgroups' counts, which stay as they are (0 for d
// past the last digit). Both loops here run over every subgroup for any d, doing nothing past the
// last digit, because of a lavapipe fault: where WG does not divide RADIX, some subgroups have no
// digit in an invocation's last round, and on lavapipe (Mesa 22.3.6) a subgroup that ran such a
// loop, with its shared-memory stores, while another subgroup skipped it lost its invocations
// (they stored nothing more, and the ranks they later staged with were wrong: a crash and wrong
// keys at workgroups of 48 to 384).
uint subgroup_total(uint d) {
  uint sum = 0u;
  for (uint s = 0u; s < gl_NumSubgroups; ++s) {
    if (d < RADIX) sum += s_work[s * RADIX + d];
  }
  return sum;
}

// Replaces each subgroup's count of digit d by its first rank of d in the tile: `start`, the
// tile's first rank of d, plus the counts of the subgroups before it; nothing for d past the last
// digit. A key's rank is then its subgroup's start plus its rank in the subgroup: one shared read
// per key instead of two (docs/perf-notes.md#radix-ranking). Only the invocation that scans digit d touches the
// counts of d here, and the barrier before the scan ordered subgroup_total's reads before it.
void add_subgroup_starts(uint d, uint start) {
  for (uint s = 0u; s < gl_NumSubgroups; ++s) {
    if (d < RADIX) {
      const uint c = s_work[s * RADIX + d];
      s_work[s * RADIX + d] = start;
      start += c;
    }
  }
}

// The position of this invocation in subgroup-major order, the order workgroup_exclusive_add uses.
uint scan_index() { return gl_SubgroupID * gl_SubgroupSize + gl_SubgroupInvocationID; }

// Replaces s_tile_start[d] (counts) by the exclusive prefix over digits, and each subgroup's count
// of d by its first rank of d in the tile (add_subgroup_starts).
void scan_tile_digits() {
  const uint first = scan_index() * DIGITS_PER_INVOCATION;
  uint sum = 0u;
  for (uint r = 0u; r < DIGITS_PER_INVOCATION; ++r) {
    if (first + r < RADIX) sum += s_tile_start[first + r];
  }
  uint total;
  uint running = workgroup_exclusive_add(sum, total);
  for (uint r = 0u; r < DIGITS_PER_INVOCATION; ++r) {
    const uint d = first + r;
    const uint c = d < RADIX ? s_tile_start[d] : 0u;
    if (d < RADIX) s_tile_start[d] = running;
    add_subgroup_starts(d, running);
    running += c;
  }
}

#endif
