// Transposes each B x B block of the array (rows of B elements) in 16 x 16 tiles through shared
// memory, keys and values alike, as raw words. Reads bindings 1, 2 (source keys, values), writes
// 3, 4 (destination keys, values); reads binding 0 (the count n).
// Forward: the array is the source, the transposed blocks the destination; back: the reverse.
// The transposed form stores block b's column c at b * B * B + c * rows + r, where rows is the
// block's row count (B but for the last block), so it needs no room past the last row.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "bitonic_transpose_layout.h"

layout(local_size_x = 16, local_size_y = 16) in;
layout(constant_id = BITONIC_TRANSPOSE_TRANSPOSE_KEY_WORDS) const uint KEY_WORDS = 1;
layout(constant_id = BITONIC_TRANSPOSE_TRANSPOSE_VALUE_WORDS) const uint VALUE_WORDS = 0;
layout(constant_id = BITONIC_TRANSPOSE_TRANSPOSE_B_BITS) const uint B_BITS = 9;

const uint B = 1u << B_BITS;
const uint WORDS = KEY_WORDS + VALUE_WORDS;

#include "grid.glsl"

layout(std430, binding = 0) readonly restrict buffer Count { uint count; };
layout(std430, binding = 1) readonly restrict buffer SrcKeys { uint src_keys[]; };
layout(std430, binding = 2) readonly restrict buffer SrcValues { uint src_values[]; };
layout(std430, binding = 3) writeonly restrict buffer DstKeys { uint dst_keys[]; };
layout(std430, binding = 4) writeonly restrict buffer DstValues { uint dst_values[]; };
layout(push_constant) uniform Push { uint forward; } pc;

shared uint tile[WORDS][16][17];  // one padding column: column reads hit 16 different banks

void load_words(uint at, uint y, uint x) {
  for (uint w = 0; w < KEY_WORDS; ++w) tile[w][y][x] = src_keys[at * KEY_WORDS + w];
  for (uint w = 0; w < VALUE_WORDS; ++w) tile[KEY_WORDS + w][y][x] = src_values[at * VALUE_WORDS + w];
}

void store_words(uint at, uint y, uint x) {
  for (uint w = 0; w < KEY_WORDS; ++w) dst_keys[at * KEY_WORDS + w] = tile[w][y][x];
  for (uint w = 0; w < VALUE_WORDS; ++w) dst_values[at * VALUE_WORDS + w] = tile[KEY_WORDS + w][y][x];
}

void main() {
  const uint n = count;
  const uint t = linear_workgroup_id();
  const uint row0 = (t / (B / 16u)) * 16u;  // first array row of the tile
  const uint col0 = (t % (B / 16u)) * 16u;  // first column
  if (row0 * B >= n) return;  // the whole tile is padding (uniform across the workgroup)
  const uint block = row0 >> B_BITS, r0 = row0 & (B - 1u);
  const uint base = block * B * B;
  const uint rows = min(B, (n - base + B - 1u) / B);
  const uint lx = gl_LocalInvocationID.x, ly = gl_LocalInvocationID.y;
  // Each side reads and writes 16 consecutive positions per tile row: along a row of the array
  // (column c varies with lx), or along a stored column (row r varies with lx).
  const uint q_row = base + (r0 + ly) * B + col0 + lx;   // element (r0 + ly, col0 + lx)
  const uint q_col = base + (r0 + lx) * B + col0 + ly;   // element (r0 + lx, col0 + ly)
  const uint s_col = base + (col0 + ly) * rows + r0 + lx;  // where the transpose keeps q_col
  if (pc.forward != 0u) {
    if (q_row < n) load_words(q_row, ly, lx);
  } else {
    if (q_col < n) load_words(s_col, lx, ly);
  }
  // Orders the tile's loads before the transposed reads of other invocations' elements.
  barrier();
  if (pc.forward != 0u) {
    if (q_col < n) store_words(s_col, lx, ly);
  } else {
    if (q_row < n) store_words(q_row, ly, lx);
  }
}
