// dst[i] = src[i] * mul + add (32-bit unsigned, wrapping) for i < count, ITEMS per invocation.
// Reads binding 0 (src), writes binding 1 (dst). The demo kernel, and the runtime's test of
// dispatch sizes, push constants and specialization constants.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "core_layout.h"
#include "grid.glsl"

layout(local_size_x_id = CORE_SC_WORKGROUP) in;
layout(constant_id = AFFINE_ITEMS) const uint ITEMS = 1;
layout(constant_id = AFFINE_BIAS) const uint BIAS = 0;  // added on top of `add`, to test specialization

layout(std430, binding = 0) readonly restrict buffer Src { uint src[]; };
layout(std430, binding = 1) writeonly restrict buffer Dst { uint dst[]; };
layout(push_constant) uniform Push {
  uint count;
  uint mul;
  uint add;
} pc;

void main() {
  const uint base = linear_workgroup_id() * gl_WorkGroupSize.x * ITEMS + gl_LocalInvocationID.x;
  for (uint k = 0; k < ITEMS; ++k) {
    const uint i = base + k * gl_WorkGroupSize.x;
    if (i < pc.count) dst[i] = src[i] * pc.mul + pc.add + BIAS;
  }
}
