// The layout that the radix sort's host code (src/sort/radix*.cpp) and its kernels share: the
// state buffer's words, the push constants and the specialization-constant ids. C++ includes it
// inside a namespace, after <cstdint>; GLSL through radix.glsl. Nothing here is copied by hand.
#ifndef VKC_RADIX_LAYOUT_H
#define VKC_RADIX_LAYOUT_H

#ifdef __cplusplus
#define VKC_U32 std::uint32_t
#define VKC_CONST constexpr std::uint32_t
#else
#define VKC_U32 uint
#define VKC_CONST const uint
#endif

VKC_CONST RADIX = 256u;
VKC_CONST RADIX_MAX_PASSES = 8u;  // 64-bit keys

// The state buffer, in 32-bit words (radix.glsl describes each region's use):
VKC_CONST STATE_OFFSETS = 0u;                               // [pass * 256 + digit] each digit's first index
VKC_CONST STATE_PASS_INFO = 2048u;                          // [pass] PASS_* flags
VKC_CONST STATE_FINAL = 2056u;                              // 1 when the sorted data ends in the B buffers
VKC_CONST STATE_TICKETS = 2064u;                            // [pass] the look-back's tile counter
VKC_CONST STATE_DISPATCH = 2080u;                           // [pass * 3] the pass's scatter (and upsweep) grid
VKC_CONST STATE_SCAN_DISPATCH = STATE_DISPATCH + 24u;       // [pass * 3] the pass's scan_tiles grid
VKC_CONST STATE_HISTOGRAM_DONE = STATE_DISPATCH + 52u;      // histogram workgroups finished
VKC_CONST STATE_PAIRED_DISPATCH = STATE_DISPATCH + 56u;     // [pass * 3] the interleaved pairs' grid
VKC_CONST STATE_SHARED_WORD = STATE_DISPATCH + 80u;         // split keys: the word every key shares, as stored
VKC_CONST STATE_COUNTS = 2304u;                             // [pass * 256 + digit] the histogram
VKC_CONST STATE_TILES = 4352u;                              // the look-back and tile tables

VKC_CONST PASS_FROM_B = 2u;        // the pass reads the B (temporary) buffers and writes A
VKC_CONST PASS_READ_PLANAR = 4u;   // split keys (SPLIT_KEY): the pass reads them planar
VKC_CONST PASS_WRITE_PLANAR = 8u;  // and writes them planar (see key_word_index)
VKC_CONST PASS_COPY = 16u;         // the pass copies every element to the same index (radix_prepare.glsl)
VKC_CONST PASS_SHARED_LOW = 32u;   // split keys: every key has the same low word (STATE_SHARED_WORD)
VKC_CONST PASS_SHARED_HIGH = 64u;  // or the same high word; the passes move the other word alone

// The scatter's SCAN_MODE: where a tile's global digit offsets come from.
VKC_CONST SCAN_LOOKBACK = 0u;  // decoupled look-back
VKC_CONST SCAN_TABLE = 1u;     // the tile table that scan_tiles wrote (reduce-then-scan)

// The scatter's PAIR_ROLE (sort/radix/scatter_interleaved_pairs): its layouts, fixed by pass index.
VKC_CONST PAIR_ROLE_TO_PAIRS = 0u;    // planar to interleaved pairs (the first pass)
VKC_CONST PAIR_ROLE_PAIRS = 1u;       // pairs to pairs
VKC_CONST PAIR_ROLE_FROM_PAIRS = 2u;  // pairs to planar (the last pass)

// Push constants of the digit passes (scatter, upsweep, scan_tiles).
#define RADIX_PASS_PUSH_FIELDS                                              \
  VKC_U32 pass;                                                             \
  VKC_U32 tiles;     /* tiles for max_count: the stride of the state tables */ \
  VKC_U32 max_count;                                                        \
  VKC_U32 table;     /* tile-table modes: the tile table's first word */ \
  VKC_U32 range_low; /* the bits of the ordered key that count (radix.glsl) */ \
  VKC_U32 range_high;

// Push constants of the histogram pass.
#define RADIX_HISTOGRAM_PUSH_FIELDS                                                    \
  VKC_U32 max_count;                                                                   \
  VKC_U32 table_words; /* look-back table 0's words (zeroed here), 0 for reduce-then-scan */ \
  VKC_U32 grid_x;      /* a running pass's scatter grid, as the host splits its tiles */      \
  VKC_U32 grid_y;                                                                      \
  VKC_U32 tiles;       /* TILE_TABLE: tiles for max_count, the stride of the tile table */  \
  VKC_U32 first_table; /* TILE_TABLE: the first word of pass 0's tile table */      \
  VKC_U32 range_low;   /* the bits of the ordered key that count (radix.glsl) */    \
  VKC_U32 range_high;

// Specialization-constant ids. Id 0 is every kernel's workgroup size (local_size_x_id).
#define RADIX_SC_WORKGROUP 0

#define RADIX_SCATTER_ITEMS 1            // keys per invocation
#define RADIX_SCATTER_KEY_WORDS 2        // 1: 32-bit keys, 2: 64-bit keys
#define RADIX_SCATTER_VALUE_WORDS 3      // 0: keys only, 1 or 2: value words
#define RADIX_SCATTER_KEY_KIND 4         // keys.glsl
#define RADIX_SCATTER_DESCENDING 5
#define RADIX_SCATTER_MAX_SUBGROUPS 6    // workgroup size / smallest subgroup size
#define RADIX_SCATTER_SCAN_MODE 7        // SCAN_*
#define RADIX_SCATTER_SHARED_WORDS 8     // max(MAX_SUBGROUPS * 256, round tile * max(value words, 1))
#define RADIX_SCATTER_BALLOT_WORDS 9     // 1 when no subgroup exceeds 32 lanes, else 4
#define RADIX_SCATTER_LOOKBACK_WINDOW 10 // earlier tiles read at once per digit
#define RADIX_SCATTER_LOOKBACK_SPIN 11   // false: look-back in barrier rounds
#define RADIX_SCATTER_STAGING_ROUNDS 12  // ITEMS is a multiple of it
#define RADIX_SCATTER_COPYING 13         // runs a pass that prepare marked PASS_COPY
#define RADIX_SCATTER_PACKED_RANKS 14    // two 16-bit ranks per register
#define RADIX_SCATTER_TICKETS 15         // look-back tiles in ticket order
#define RADIX_SCATTER_AGGREGATES_ONLY 16 // for tests: every look-back walks to tile 0
#define RADIX_SCATTER_PAIR_ROLE 17       // PAIR_ROLE_* (scatter_interleaved_pairs only)
#define RADIX_SCATTER_BIT_RANGE 18        // digits cut to the push constants' range (radix.glsl)
#define RADIX_SCATTER_KEY_BITS 19         // RADIX_NARROW_KEYS shaders: 8 or 16 (radix.glsl)
#define RADIX_SCATTER_EXPONENT 20         // and a narrow float's exponent field (keys.glsl)
#define RADIX_SCATTER_ONE_WORD_PATH 21 // split keys: the one-word copy of the steps (sort_tile)
#define RADIX_SCATTER_CONSTANTS 22

#define RADIX_HISTOGRAM_ITEMS 1
#define RADIX_HISTOGRAM_KEY_WORDS 2
#define RADIX_HISTOGRAM_KEY_KIND 3
#define RADIX_HISTOGRAM_DESCENDING 4
#define RADIX_HISTOGRAM_PASSES 5
#define RADIX_HISTOGRAM_MAX_SUBGROUPS 6
#define RADIX_HISTOGRAM_TILE_TABLE 7          // chunks are the scatter's tiles; count pass 0's per tile
#define RADIX_HISTOGRAM_DOUBLES 8             // 0: keys as they are; 1, 2: doubles, ascending or descending
#define RADIX_HISTOGRAM_VECTOR_LOADS 9        // chunks read as uvec4 (not with TILE_TABLE or DOUBLES)
#define RADIX_HISTOGRAM_INTERLEAVED_PASSES 10 // split keys, or 32-bit pairs, stay interleaved
#define RADIX_HISTOGRAM_PAIRED_FROM 11        // 32-bit pairs: the least count kept interleaved
#define RADIX_HISTOGRAM_BIT_RANGE 12
#define RADIX_HISTOGRAM_KEY_BITS 13
#define RADIX_HISTOGRAM_EXPONENT 14
#define RADIX_HISTOGRAM_MARK_SHARED_WORDS 15 // split keys: mark the passes of keys that share a word
#define RADIX_HISTOGRAM_CONSTANTS 16

#define RADIX_UPSWEEP_ITEMS 1  // the scatter's tile is WG * ITEMS keys
#define RADIX_UPSWEEP_KEY_WORDS 2
#define RADIX_UPSWEEP_KEY_KIND 3
#define RADIX_UPSWEEP_DESCENDING 4
#define RADIX_UPSWEEP_BIT_RANGE 5
#define RADIX_UPSWEEP_KEY_BITS 6
#define RADIX_UPSWEEP_EXPONENT 7
#define RADIX_UPSWEEP_CONSTANTS 8

#define RADIX_SCAN_TILES_ITEMS 1  // counts per invocation per round
#define RADIX_SCAN_TILES_MAX_SUBGROUPS 2
#define RADIX_SCAN_TILES_TILE 3   // keys per tile of the scatter
#define RADIX_SCAN_TILES_CONSTANTS 4

#define RADIX_ORDER_DOUBLES_DESCENDING 1
#define RADIX_ORDER_DOUBLES_CONSTANTS 2

#define RADIX_FILL_TILE_WORDS 1  // output words per workgroup: the scatter's tile of keys, 4 a word
#define RADIX_FILL_KEY_KIND 2
#define RADIX_FILL_DESCENDING 3
#define RADIX_FILL_EXPONENT 4    // to_ordered_narrow's (0 for integers)
#define RADIX_FILL_CONSTANTS 5

#endif
