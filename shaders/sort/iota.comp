// Fills dst[i] = i for i < count, as one word or as a 64-bit value of two: the initial values
// of an argsort.
// Writes binding 0 (dst).
#version 450
#extension GL_GOOGLE_include_directive : require
#include "grid.glsl"

layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint WORDS = 1;  // words per value: 1 or 2 (the high word is 0)
layout(std430, binding = 0) writeonly restrict buffer Dst { uint dst[]; };
layout(push_constant) uniform Push { uint count; } pc;

void main() {
  const uint i = linear_workgroup_id() * gl_WorkGroupSize.x + gl_LocalInvocationID.x;
  if (i >= pc.count) return;
  dst[i * WORDS] = i;
  if (WORDS == 2) dst[i * WORDS + 1] = 0;
}
