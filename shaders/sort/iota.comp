// Fills dst[i] = i for i < count: the initial values of an argsort.
// Reads binding 0 (count), writes binding 1 (dst).
#version 450
#extension GL_GOOGLE_include_directive : require
#include "grid.glsl"

layout(local_size_x_id = 0) in;
layout(std430, binding = 0) readonly restrict buffer Count { uint count; };
layout(std430, binding = 1) writeonly restrict buffer Dst { uint dst[]; };

void main() {
  const uint i = linear_workgroup_id() * gl_WorkGroupSize.x + gl_LocalInvocationID.x;
  if (i < count) dst[i] = i;
}
