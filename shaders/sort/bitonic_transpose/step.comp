// One compare-exchange step of the bitonic network in global memory, for strides too long for
// the transposed row sort (2^pc.bit >= B * B): one pair per invocation.
// Reads and writes binding 1 (keys) and 2 (values) in place; reads binding 0 (the count n).
#version 450
#extension GL_GOOGLE_include_directive : require
#include "bitonic_transpose_layout.h"

layout(local_size_x_id = BITONIC_TRANSPOSE_SC_WORKGROUP) in;
layout(constant_id = BITONIC_TRANSPOSE_STEP_KEY_WORDS) const uint KEY_WORDS = 1;
layout(constant_id = BITONIC_TRANSPOSE_STEP_VALUE_WORDS) const uint VALUE_WORDS = 0;
layout(constant_id = BITONIC_TRANSPOSE_STEP_KEY_KIND) const uint KEY_KIND = 0;
layout(constant_id = BITONIC_TRANSPOSE_STEP_DESCENDING) const bool DESCENDING = false;

#include "grid.glsl"
#include "sort_io.glsl"

layout(push_constant) uniform Push {
  uint stage;  // the network's stage
  uint bit;    // the stride is 2^bit
} pc;

void main() {
  const uint n = count;
  const uint i = linear_workgroup_id() * gl_WorkGroupSize.x + gl_LocalInvocationID.x;
  const uint low = i & ((1u << pc.bit) - 1u);
  const uint lower = ((i >> pc.bit) << (pc.bit + 1u)) | low;  // i with a 0 inserted at `bit`
  const uint upper = lower | (1u << pc.bit);
  if (upper >= n) return;  // the comparator reaches padding (or no pair: i < n covers every pair)
  Elem a = load_elem(lower), b = load_elem(upper);
  if (ascending_at(lower, pc.stage, n) ? elem_after(a, b, KEY_WORDS) : elem_after(b, a, KEY_WORDS)) {
    store_elem(lower, b);
    store_elem(upper, a);
  }
}
