// What the radix sort decides once every digit is counted, run by the last histogram workgroup
// (sort/radix/histogram): the digit histograms become each digit's first index; passes whose
// digit is the same for every key get no workgroups (each pass's grid is written here); and each
// pass learns which buffer pair it reads, in which layout, and whether it only copies.
//
// The including shader defines PASSES, FLOAT_KEYS, MARK_SHARED_WORDS, WORKGROUP_SCAN_MAX_SUBGROUPS
// and the constants radix.glsl needs, includes radix.glsl and workgroup_scan.glsl, and binds
// `state`; the grids come as prepare_passes' arguments.
#ifndef VKC_RADIX_PREPARE_GLSL
#define VKC_RADIX_PREPARE_GLSL

shared uint s_skip[8];
shared uint s_digit[8];  // pass p's one digit, where s_skip[p] says every key has it

// A VkDispatchIndirectCommand.
void set_grid(uint word, uvec2 grid) {
  state[word] = grid.x;
  state[word + 1u] = grid.y;
  state[word + 2u] = 1u;
}

// The histogram words were added to atomically by every workgroup: read them the same way, so
// that the acquire that made them visible covers these reads.
uint histogram_count(uint word) { return atomicLoad(state[word], gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsRelaxed); }

const uint PREPARE_DIGITS = (RADIX + gl_WorkGroupSize.x - 1u) / gl_WorkGroupSize.x;  // per invocation

// This invocation's digits of every pass's histogram, all read before any is scanned, so that
// the reads overlap instead of waiting on each other across the scans' barriers. Each count is
// zeroed once read, for the next sort (radix.glsl): every other workgroup has added its counts
// (finished_last), and the same invocation's read of the word comes first in program order.
void load_histograms(out uint counts[PASSES][PREPARE_DIGITS]) {
  const uint first = (gl_SubgroupID * gl_SubgroupSize + gl_SubgroupInvocationID) * PREPARE_DIGITS;
  [[unroll]] for (uint p = 0u; p < PASSES; ++p) {
    for (uint r = 0u; r < PREPARE_DIGITS; ++r) {
      counts[p][r] = first + r < RADIX ? histogram_count(STATE_COUNTS + p * RADIX + first + r) : 0u;
    }
  }
  [[unroll]] for (uint p = 0u; p < PASSES; ++p) {
    for (uint r = 0u; r < PREPARE_DIGITS; ++r) {
      if (first + r < RADIX) state[STATE_COUNTS + p * RADIX + first + r] = 0u;
    }
  }
}

// Writes pass p's digit offsets, the exclusive prefix of its histogram, given this invocation's
// counts of it; s_skip[p] = 1 when one digit holds every key, and s_digit[p] is that digit.
// Returns whether the counts add up to n (uniform): they always do, unless the caller marked a
// temporary buffer clear that was not (SortBuffers::temporary_is_clear).
bool scan_pass_histogram(uint p, uint n, uint counts[PREPARE_DIGITS]) {
  const uint first = (gl_SubgroupID * gl_SubgroupSize + gl_SubgroupInvocationID) * PREPARE_DIGITS;
  uint sum = 0u;
  for (uint r = 0u; r < PREPARE_DIGITS; ++r) {
    if (counts[r] == n) s_skip[p] = 1u;
    if (counts[r] == n && n != 0u) s_digit[p] = first + r;  // one digit at most
    sum += counts[r];
  }
  uint total;
  uint running = workgroup_exclusive_add(sum, total);
  for (uint r = 0u; r < PREPARE_DIGITS; ++r) {
    if (first + r < RADIX) state[STATE_OFFSETS + p * RADIX + first + r] = running;
    running += counts[r];
  }
  return total == n;
}

// Split keys one of whose words every key has (its four digits each the same for every key, and
// no bit range that hides bits of it): the passes move the other word alone, planar between the
// first pass and the last, and the last writes the shared word beside it, so that a pass moves
// half the bytes (radix_scatter.glsl). Returns the PASS_SHARED_* flag, and leaves the word as
// stored in STATE_SHARED_WORD; 0 when neither or both words are shared (then no pass runs).
uint plan_shared_word() {
  if (!MARK_SHARED_WORDS || !SPLIT_KEY || BIT_RANGE) return 0u;
  bool shared_word[2] = {true, true};
  for (uint p = 0u; p < PASSES; ++p) shared_word[p / 4u] = shared_word[p / 4u] && s_skip[p] != 0u;
  if (shared_word[0] == shared_word[1]) return 0u;
  const uint word = shared_word[0] ? 0u : 1u;
  uint ordered = 0u;
  for (uint d = 0u; d < 4u; ++d) ordered |= s_digit[word * 4u + d] << (8u * d);
  state[STATE_SHARED_WORD] = ordered_key_word(ordered, word);
  return word == 0u ? PASS_SHARED_LOW : PASS_SHARED_HIGH;
}

// Which buffers each pass reads, in which layout, and how many workgroups it gets; invocation 0 only.
// An odd count of running passes would leave the data in the B buffers: one skipped pass runs as
// a plain copy to the other buffer pair instead, which makes the count even, so that no sort
// needs a copy kernel's barrier and dispatch after its passes. Counts that do not add up
// (`miscounted`) run no pass at all: offsets made from them could send keys past the buffers' ends.
// `paired_layout`: 32-bit keys with 32-bit values of at least PAIRED_FROM elements, which the host
// keeps interleaved (radix.cpp, interleaved_pairs_from); they stay interleaved between the first
// pass and the last when every pass runs, each pass in the interleaved pipeline of its index,
// recorded beside the planar one. Where a pass is skipped they stay planar: those pipelines fix
// their layouts by pass index.
void plan_passes(uvec2 pass_grid, bool miscounted, bool paired_layout) {
  bool skip[PASSES];
  uint running = 0u;
  for (uint p = 0u; p < PASSES; ++p) {
    // When every pass could be skipped, float keys still take the last one, so that each key
    // is written back in its canonical form (a NaN's sign bit cleared); integers are left as
    // they are, already sorted.
    skip[p] = miscounted || (s_skip[p] != 0u && (running != 0u || p + 1u < PASSES || !FLOAT_KEYS));
    if (!skip[p]) ++running;
  }
  uint copy_pass = PASSES;  // none
  if (running % 2u != 0u) {
    copy_pass = 0u;
    while (!skip[copy_pass]) ++copy_pass;  // PASSES is even, so an odd count leaves a skipped pass
    skip[copy_pass] = false;
  }
  uint first_run = PASSES, last_run = PASSES;  // the first and the last pass that run
  for (uint p = 0u; p < PASSES; ++p) {
    if (!skip[p]) {
      if (first_run == PASSES) first_run = p;
      last_run = p;
    }
  }
  const bool paired = paired_layout && running == PASSES;  // no copying pass then
  const uint shared_word = miscounted ? 0u : plan_shared_word();
  // Split keys are planar between the first pass and the last (key_word_index), unless every
  // pass stores each key whole (INTERLEAVED_PASSES) and no word is shared.
  const bool planar_between = SPLIT_KEY && (!INTERLEAVED_PASSES || shared_word != 0u);
  uint in_b = 0u;  // where the data is before pass p
  for (uint p = 0u; p < PASSES; ++p) {
    uint info = (in_b != 0u ? PASS_FROM_B : 0u) | shared_word;
    if (planar_between && p > first_run) info |= PASS_READ_PLANAR;
    if (planar_between && p < last_run) info |= PASS_WRITE_PLANAR;
    if (p == copy_pass) info |= PASS_COPY;
    state[STATE_PASS_INFO + p] = info;
    set_grid(STATE_DISPATCH + p * 3u, skip[p] || paired ? uvec2(0u, 1u) : pass_grid);
    set_grid(STATE_PAIRED_DISPATCH + p * 3u, paired ? pass_grid : uvec2(0u, 1u));
    // A copying pass needs no scan of its tiles' counts (reduce-then-scan's upsweep, which shares
    // the scatter's grid, still counts them: the rare pass that copies is not worth a grid of its own).
    set_grid(STATE_SCAN_DISPATCH + p * 3u, uvec2(skip[p] || p == copy_pass ? 0u : RADIX, 1u));
    if (!skip[p]) in_b ^= 1u;
  }
  state[STATE_FINAL] = in_b;
  // The words that must be zero when a sort starts (radix.glsl): every histogram workgroup has
  // counted itself done. The tickets are the passes' (the barrier before them orders this).
  state[STATE_HISTOGRAM_DONE] = 0u;
  for (uint p = 0u; p < PASSES; ++p) state[STATE_TICKETS + p] = 0u;
}

// Every invocation of the (last) workgroup calls this, in uniform control flow.
void prepare_passes(uint n, uvec2 pass_grid) {
  if (gl_LocalInvocationIndex < 8u) s_skip[gl_LocalInvocationIndex] = 0u;
  // Orders the flags' zeroing before any invocation sets one.
  barrier();
  // Each pass's scan reads only the words its own invocation then writes (and the workgroup
  // scan's barriers separate the passes' uses of its totals).
  uint counts[PASSES][PREPARE_DIGITS];
  load_histograms(counts);
  bool counted_all = true;
  for (uint p = 0u; p < PASSES; ++p) counted_all = scan_pass_histogram(p, n, counts[p]) && counted_all;
  // Orders every skip flag before invocation 0 reads them.
  barrier();
  const bool paired_layout = !SPLIT_KEY && INTERLEAVED_PASSES && n >= PAIRED_FROM;
  if (gl_LocalInvocationIndex == 0u) plan_passes(pass_grid, !counted_all, paired_layout);
}

#endif
