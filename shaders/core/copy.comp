// Copies `words` 32-bit words from src to dst, in 16-byte vectors, ITEMS vectors per invocation.
// Reads binding 0 (src), writes binding 1 (dst); the two must not overlap.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "core_layout.h"
#include "grid.glsl"

layout(local_size_x_id = CORE_SC_WORKGROUP) in;
layout(constant_id = COPY_ITEMS) const uint ITEMS = 4;

layout(std430, binding = 0) readonly restrict buffer Src { uvec4 src[]; };
layout(std430, binding = 1) writeonly restrict buffer Dst { uvec4 dst[]; };
layout(push_constant) uniform Push { uint words; } pc;

void main() {
  const uint vectors = pc.words / 4;
  const uint base = linear_workgroup_id() * gl_WorkGroupSize.x * ITEMS + gl_LocalInvocationID.x;
  // Strided by the workgroup size so that each load instruction of the workgroup is contiguous.
  for (uint k = 0; k < ITEMS; ++k) {
    const uint i = base + k * gl_WorkGroupSize.x;
    if (i < vectors) dst[i] = src[i];
  }
  // The last 0-3 words that do not fill a vector: one invocation copies them.
  if (base == 0) {
    for (uint w = vectors * 4; w < pc.words; ++w) dst[w / 4][w % 4] = src[w / 4][w % 4];
  }
}
