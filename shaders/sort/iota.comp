// Fills dst[i] = first + i for i < count, as one word or as a 64-bit value of two: the initial
// values of an argsort, numbered from `first` where the sort is one run of a larger one.
// Writes binding 0 (dst).
#version 450
#extension GL_GOOGLE_include_directive : require
#include "sort_layout.h"
#include "grid.glsl"

layout(local_size_x_id = SORT_SC_WORKGROUP) in;
layout(constant_id = IOTA_WORDS) const uint WORDS = 1;  // words per value: 1 or 2
layout(std430, binding = 0) writeonly restrict buffer Dst { uint dst[]; };
// first_high is 0 where WORDS is 1 (the caller keeps first + count within 32 bits).
layout(push_constant) uniform Push { uint count; uint first_low; uint first_high; } pc;

void main() {
  const uint i = linear_workgroup_id() * gl_WorkGroupSize.x + gl_LocalInvocationID.x;
  if (i >= pc.count) return;
  const uint low = pc.first_low + i;
  dst[i * WORDS] = low;
  if (WORDS == 2) dst[i * WORDS + 1] = pc.first_high + (low < i ? 1u : 0u);
}
