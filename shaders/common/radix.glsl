// Shared pieces of the LSD radix sort (shaders/sort/radix/): the layout of its state buffer,
// the per-pass flags, and keys as "ordered" words with 8-bit digits.
//
// The including shader defines the constants KEY_WORDS (1 or 2), KEY_KIND (keys.glsl),
// DESCENDING and BIT_RANGE (bools) before the include, and key_range() after it, or RADIX_STATE_ONLY when it needs only the state layout.
#ifndef VKC_RADIX_GLSL
#define VKC_RADIX_GLSL

// The state buffer, in 32-bit words (radix_layout.h holds the numbers, shared with the host):
//   [STATE_OFFSETS + pass * 256 + digit]  each digit's first index in each pass, which the
//                                         last histogram workgroup computes from the counts
//                                         (radix_prepare.glsl)
//   [STATE_PASS_INFO + pass]              PASS_* flags, written by prepare
//   [STATE_FINAL]                         1 when the sorted data ends in the B buffers
//   [STATE_TICKETS + pass]                the look-back path's tile counter
//   [STATE_DISPATCH + pass * 3]           the pass's scatter (and upsweep) grid, written by
//                                         prepare: no workgroups at all for a skipped pass
//   [STATE_DISPATCH + 24 + pass * 3]      the pass's scan_tiles grid, likewise
//   [STATE_PAIRED_DISPATCH + pass * 3]    32-bit pairs whose passes may keep them interleaved:
//                                         the grid of the pass's interleaved pipeline, which
//                                         prepare gives the pass's workgroups instead of
//                                         STATE_DISPATCH's pipeline when they stay interleaved
//   [STATE_HISTOGRAM_DONE]                histogram workgroups finished, so that the last one
//                                         knows it is last
//   [STATE_COUNTS + pass * 256 + digit]   the histogram of every digit of every pass, added to
//                                         by every histogram workgroup
//   The counts and STATE_HISTOGRAM_DONE must be zero when a sort starts; the last histogram
//   workgroup zeroes them again once it has read them, so that a sort leaves them zero (the host
//   fills them before a sort unless the caller says a radix sort left them so). Every other
//   header word is written before it is read.
//   [STATE_TILES ...]                     look-back: (table * tiles + tile) * 256 + digit, where
//                                         table is 1 for passes that read the B buffers: two
//                                         tables, each running pass zeroing the next one's.
//                                         Reduce-then-scan: one tile table (digit * tiles +
//                                         tile), counted by the histogram for pass 0 and by the
//                                         upsweep for the others
#include "radix_layout.h"

#ifndef RADIX_STATE_ONLY
#include "keys.glsl"

#ifdef RADIX_NARROW_KEYS
// Keys of KEY_BITS (8 or 16) bits, which the RADIX_NARROW_KEYS shaders load and store as such
// (8- and 16-bit storage; the including shader declares KEY_BITS and EXPONENT): the ordered form
// lies in the low KEY_BITS bits (KEY_WORDS is 1). The host records two passes for both widths: an
// 8-bit key's second digit is zero, so that pass is skipped, or copies the first one's result
// back to the caller's buffers (radix_prepare.glsl needs an even count of passes). 8-bit keys
// sorted alone take no pass: sort/radix/fill_narrow writes them from pass 0's digit offsets.
uvec2 to_ordered_key(uvec2 raw) { return uvec2(to_ordered_narrow(raw.x, KEY_BITS, KEY_KIND, EXPONENT, DESCENDING), 0u); }

uvec2 from_ordered_key(uvec2 ordered) {
  return uvec2(from_ordered_narrow(ordered.x, KEY_BITS, KEY_KIND, EXPONENT, DESCENDING), 0u);
}
#else
// A key's words in the order of keys.glsl (low word first); .y is 0 for 32-bit keys.
uvec2 to_ordered_key(uvec2 raw) {
  if (KEY_WORDS == 1u) return uvec2(to_ordered32(raw.x, KEY_KIND, DESCENDING), 0u);
  return to_ordered64(raw, KEY_KIND, DESCENDING);
}

uvec2 from_ordered_key(uvec2 ordered) {
  if (KEY_WORDS == 1u) return uvec2(from_ordered32(ordered.x, KEY_KIND, DESCENDING), 0u);
  return from_ordered64(ordered, KEY_KIND, DESCENDING);
}
#endif

// 64-bit integer keys move one word at a time through a digit pass: the word that holds the
// pass's digit is ranked and staged alone, and the other word follows it like a value, so that a
// key costs the ranking one register instead of two. Each word's transform (keys.glsl) needs only
// that word for integers; a double's does not (its sign and its NaNs span both words), so the
// host sorts doubles as the unsigned integers of their ordered form (made by the histogram pass,
// undone by sort/radix/order_doubles) and no pass sees them as floats: every 64-bit key is split.
const bool SPLIT_KEY = KEY_WORDS == 2u;

// Where word `word` (0 low, 1 high) of 64-bit key i lies in a keys buffer: interleaved, the
// caller's layout (key i at 2i and 2i + 1), or planar (the low words of the n keys, then their
// high words), which occupies the same 2n words. The passes between the first and the last that
// run keep split keys planar, so that each word is read and written in whole sectors, as a key
// and its value are; interleaved, a pass's loads and stores of one word use half of every sector.
uint key_word_index(uint i, uint word, bool planar, uint n) { return planar ? word * n + i : i * 2u + word; }

// The word of a split key that holds pass p's digit (low word first).
uint digit_word(uint pass) { return pass >= 4u ? 1u : 0u; }

// The ordered form of one word of a split key; the map is its own inverse.
uint ordered_key_word(uint w, uint word) {
  const uint t = KEY_KIND == KEY_KIND_INT && word == 1u ? w ^ 0x80000000u : w;
  return DESCENDING ? ~t : t;
}

// Stands for positions past the element count: digit 255 in every pass, so such keys rank last.
const uvec2 ORDERED_KEY_MAX = uvec2(0xFFFFFFFFu);

// The bits of the ordered key that count, low word and high word (SortOptions::begin_bit and
// end_bit): the push constants' range_low and range_high, which each kernel returns. A push
// constant, so that a new range compiles no pipeline; read only where BIT_RANGE says the sort has
// one, as the mask costs the whole-key sorts about 2% where it is applied (docs/perf-notes.md).
uvec2 key_range();

// Pass p sorts by bits [8p, 8p + 8) of the ordered key, those outside the bit range as zeros: a
// pass wholly outside it finds one digit only, and prepare skips it.
uint digit_of(uvec2 ordered, uint pass) {
  const uvec2 cut = BIT_RANGE ? ordered & key_range() : ordered;
  const uint word = pass < 4u ? cut.x : cut.y;
  return (word >> ((pass & 3u) * 8u)) & 0xFFu;
}
#endif

#endif
