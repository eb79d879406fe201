// The DirectX SDK's ComputeShaderSort11 row sort: one stage of the bitonic network, strides from
// pc.j_top down to 1 within rows of B = workgroup-size elements, one element per invocation.
// Reads and writes binding 1 (keys) and 2 (values) in place; reads binding 0 (the count n).
// Mode 0: a row is B consecutive elements. Mode 1: the buffers hold the transpose of each
// B x B block (transpose.comp), so a row is a column of a block and a row stride j is the
// element stride j * B; the last block is stored with only as many columns as it has rows.
// Positions at or past n are virtual padding: their comparators are skipped (compare_exchange.glsl).
#version 450
#extension GL_GOOGLE_include_directive : require
#include "bitonic_transpose_layout.h"

layout(local_size_x_id = BITONIC_TRANSPOSE_SC_WORKGROUP) in;
layout(constant_id = BITONIC_TRANSPOSE_ROWS_KEY_WORDS) const uint KEY_WORDS = 1;
layout(constant_id = BITONIC_TRANSPOSE_ROWS_VALUE_WORDS) const uint VALUE_WORDS = 0;
layout(constant_id = BITONIC_TRANSPOSE_ROWS_KEY_KIND) const uint KEY_KIND = 0;
layout(constant_id = BITONIC_TRANSPOSE_ROWS_DESCENDING) const bool DESCENDING = false;
layout(constant_id = BITONIC_TRANSPOSE_ROWS_B_BITS) const uint B_BITS = 9;

const uint B = 1u << B_BITS;
const uint SHARED_ELEMS = B;

#include "grid.glsl"
#include "sort_io.glsl"
#include "sort_shared.glsl"

layout(push_constant) uniform Push {
  uint stage;  // the network's stage: blocks of 2^stage elements
  uint j_top;  // the first row stride (a power of two below B)
  uint mode;   // 0: rows of consecutive elements; 1: transposed blocks
} pc;

uint n;
uint row;

// The global index of row position x.
uint q_of(uint x) {
  if (pc.mode == 0u) return row * B + x;
  return (row >> B_BITS) * B * B + x * B + (row & (B - 1u));
}

// Where row position x is stored (mode 1: column-major within each block, `rows` rows long).
uint storage_of(uint x, uint rows) {
  if (pc.mode == 0u) return row * B + x;
  return (row >> B_BITS) * B * B + (row & (B - 1u)) * rows + x;
}

void main() {
  n = count;
  row = linear_workgroup_id();
  const uint x = gl_LocalInvocationID.x;
  if (q_of(0u) >= n) return;  // the whole row is padding (uniform across the workgroup)
  const uint block_start = (row >> B_BITS) * B * B;
  const uint rows = min(B, (n - block_start + B - 1u) / B);  // rows of this block (mode 1)
  const uint q = q_of(x);
  put_shared(x, q < n ? load_elem(storage_of(x, rows)) : Elem(~0u, ~0u, 0u, 0u));
  // Orders the row's loads into shared memory before the first step reads partners.
  barrier();
  for (uint j = pc.j_top; j > 0u; j >>= 1u) {
    const uint lower = x & ~j, upper = x | j;
    const Elem mine = get_shared(x);
    const Elem other = get_shared(x ^ j);
    const Elem result = keep_or_take(mine, other, x == lower, ascending_at(q_of(lower), pc.stage, n),
                                     q_of(upper) < n, KEY_WORDS);
    // Orders every invocation's reads of this step before anyone overwrites its element.
    barrier();
    put_shared(x, result);
    // Orders this step's writes before the next step's (or the final store's) reads.
    barrier();
  }
  if (q < n) store_elem(storage_of(x, rows), get_shared(x));
}
