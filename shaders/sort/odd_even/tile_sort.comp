// Sorts each tile of TILE elements by odd-even transposition in shared memory, stably.
// Reads binding 0 (count); reads and writes bindings 1 (keys) and 2 (values, when VALUE_WORDS > 0).
#version 450
#extension GL_GOOGLE_include_directive : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_vote : require
#include "tile.glsl"

// Whether any invocation swapped in an iteration, per iteration parity: one slot is read while
// the other is cleared for the next iteration.
shared uint s_swapped[2];

// One phase: compare-exchange of slots (2q + first, 2q + first + 1) for every q, each invocation
// owning every WG-th pair; positions at or past m (padding) are never compared, as if they held
// keys after every real key. Swaps move keys and their source slots. Returns whether it swapped.
bool transposition_phase(uint first, uint m) {
  bool swapped = false;
  for (uint i = 2 * gl_LocalInvocationID.x + first; i + 1 < m; i += 2 * gl_WorkGroupSize.x) {
    if (slot_less(i + 1, i)) {
      for (uint w = 0; w < KEY_WORDS; ++w) {
        const uint t = s_keys[i * KEY_WORDS + w];
        s_keys[i * KEY_WORDS + w] = s_keys[(i + 1) * KEY_WORDS + w];
        s_keys[(i + 1) * KEY_WORDS + w] = t;
      }
      const uint t = s_index[i];
      s_index[i] = s_index[i + 1];
      s_index[i + 1] = t;
      swapped = true;
    }
  }
  return swapped;
}

void main() {
  const uint n = count;
  const uint base = linear_workgroup_id() * TILE;
  if (base >= n) return;  // the whole workgroup: past the GPU-side count
  const uint m = min(TILE, n - base);

  load_tile(base, m);
  for (uint s = gl_LocalInvocationID.x; s < m; s += gl_WorkGroupSize.x) s_index[s] = s;
  if (gl_LocalInvocationID.x == 0) s_swapped[0] = 0u;
  // The loaded tile and the cleared vote are visible to every invocation before the first phase.
  barrier();

  // m phases sort m elements; each iteration runs both, so (m + 1) / 2 iterations bound it.
  // The loop exits early only on a workgroup-wide vote that is read by all after a barrier.
  bool sorted_on_entry = false;
  for (uint iter = 0; iter < (m + 1) / 2; ++iter) {
    const bool swapped_even = transposition_phase(0, m);
    // The even phase's swaps are complete before the odd phase reads the slots they share.
    barrier();
    const bool swapped_odd = transposition_phase(1, m);
    if (subgroupAny(swapped_even || swapped_odd) && subgroupElect()) atomicOr(s_swapped[iter & 1], 1u);
    // The odd phase's swaps and every subgroup's vote are complete before anyone reads the
    // vote or starts the next even phase.
    barrier();
    if (s_swapped[iter & 1] == 0u) {  // the same word for every invocation: a uniform exit
      sorted_on_entry = iter == 0;
      break;
    }
    // The other slot was last read in the previous iteration, before this iteration's first
    // barrier, and is next written after the next iteration's first barrier.
    if (gl_LocalInvocationID.x == 0) s_swapped[(iter + 1) & 1] = 0u;
  }
  if (sorted_on_entry) {
    // Nothing moved, so values stay; float keys are still written once, which gives every NaN
    // its positive sign as the order contract says (merge-split only moves keys written here).
    if (KEY_KIND == KEY_KIND_FLOAT) store_keys(base, m, false);
    return;
  }

  // The last barrier of the loop ordered every swap before these reads.
  store_keys(base, m, false);
  move_values(base, m);
}
