// One round of block odd-even merge-split: each workgroup merges two neighbouring sorted blocks
// of HALF elements, stably (left first on ties), lower half to the left block, upper to the right.
// Reads binding 0 (count); reads and writes bindings 1 (keys), 2 (values, when VALUE_WORDS > 0)
// and 3 (control: the round's votes, and the grid of later rounds).
#version 450
#extension GL_GOOGLE_include_directive : require
#include "tile.glsl"
#include "control.glsl"

VKC_ODD_EVEN_CONTROL(3)
layout(push_constant) uniform Push {
  uint first_block;  // 0: pairs (0,1), (2,3), ...; 1: pairs (1,2), (3,4), ...
} pc;

// Elements per invocation in the merge: each takes a contiguous run of outputs.
const uint ITEMS = (TILE + gl_WorkGroupSize.x - 1) / gl_WorkGroupSize.x;

// How many of the first k outputs come from the left block (slots [0, HALF)) when it is merged
// with the right block (slots [HALF, HALF + right)), left first on ties: a binary search for
// the split point of the merge path.
uint left_taken(uint k, uint right) {
  uint lo = k > right ? k - right : 0u;
  uint hi = min(k, HALF);
  while (lo < hi) {
    const uint mid = (lo + hi) / 2;
    // Left element mid precedes right element k - mid - 1 unless that one is strictly smaller.
    if (!slot_less(HALF + k - mid - 1, mid)) lo = mid + 1; else hi = mid;
  }
  return lo;
}

// Writes into s_index[k], for this invocation's outputs k, the slot that output takes.
void merge_path(uint m) {
  const uint right = m - HALF;
  const uint first = min(gl_LocalInvocationID.x * ITEMS, m);
  const uint last = min(first + ITEMS, m);
  uint i = left_taken(first, right);
  uint j = first - i;
  for (uint k = first; k < last; ++k) {
    const bool take_left = i < HALF && (j >= right || !slot_less(HALF + j, i));
    s_index[k] = take_left ? i++ : HALF + j++;
  }
}

// Invocation 0 of every workgroup votes whether its pair changes; the last workgroup of the
// round to vote closes it: counts it, and empties the grid of every later round when no pair
// changed (the previous round merged the other pairs, so all neighbours are then in order).
// Later rounds read the grid only after the barrier that follows this dispatch.
void vote_and_close_round(bool changes) {
  if (changes) atomicAdd(control.changed, 1u);
  memoryBarrierBuffer();  // this workgroup's vote is visible before its ticket is taken
  const uint workgroups = gl_NumWorkGroups.x * gl_NumWorkGroups.y;
  if (atomicAdd(control.done, 1u) != workgroups - 1u) return;
  memoryBarrierBuffer();  // every other workgroup's vote is visible to the last one
  if (atomicOr(control.changed, 0u) == 0u) control.args.x = 0u;
  control.rounds += 1u;
  control.changed = 0u;
  control.done = 0u;
}

void main() {
  const uint n = count;
  const uint left_block = 2 * linear_workgroup_id() + pc.first_block;
  const bool has_pair = left_block + 1 < half_blocks(n);  // else past the count: no right neighbour
  const uint base = left_block * HALF;
  // Two sorted blocks are in order already when the left one's last key does not sort after the
  // right one's first. Every invocation reads the same two keys, so the exit below is uniform.
  const bool changes = has_pair && ordered_less(ordered_key_at(base + HALF), ordered_key_at(base + HALF - 1));
  if (gl_LocalInvocationID.x == 0) vote_and_close_round(changes);
  if (!changes) return;
  const uint m = min(TILE, n - base);  // a full left block, and the right one up to the count

  load_tile(base, m);
  // Both blocks are in shared memory before any invocation searches them.
  barrier();
  merge_path(m);
  // Every output's source slot is chosen before the keys are gathered.
  barrier();
  store_keys(base, m, true);
  move_values(base, m);
}
