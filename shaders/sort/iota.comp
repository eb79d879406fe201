// Fills dst[i] = i for i < count: the initial values of an argsort.
// Writes binding 0 (dst).
#version 450
#extension GL_GOOGLE_include_directive : require
#include "grid.glsl"

layout(local_size_x_id = 0) in;
layout(std430, binding = 0) writeonly restrict buffer Dst { uint dst[]; };
layout(push_constant) uniform Push { uint count; } pc;

void main() {
  const uint i = linear_workgroup_id() * gl_WorkGroupSize.x + gl_LocalInvocationID.x;
  if (i < pc.count) dst[i] = i;
}
