// Splats bodies into an image of hit counts: each body adds 1 to the pixel under it in an
// orthographic view along -z. Reads binding 0 (positions), updates binding 1 (counts, one uint
// per pixel, row 0 at the top; the caller clears it first).
#version 450
#extension GL_GOOGLE_include_directive : require
#include "grid.glsl"

layout(local_size_x_id = 0) in;

layout(std430, binding = 0) readonly restrict buffer Positions { vec4 pos[]; };
layout(std430, binding = 1) restrict buffer Counts { uint counts[]; };
layout(push_constant) uniform Push {
  uint n;
  uint width;
  uint height;
  float centre_x;
  float centre_y;
  float pixels_per_unit;
} pc;

void main() {
  const uint i = linear_workgroup_id() * gl_WorkGroupSize.x + gl_LocalInvocationID.x;
  if (i >= pc.n) return;
  const vec2 q = (pos[i].xy - vec2(pc.centre_x, pc.centre_y)) * pc.pixels_per_unit;
  const float x = floor(q.x + 0.5 * float(pc.width));
  const float y = floor(0.5 * float(pc.height) - q.y);  // +y is up in the image
  // The comparisons also reject NaN positions.
  if (!(x >= 0 && y >= 0 && x < float(pc.width) && y < float(pc.height))) return;
  atomicAdd(counts[uint(y) * pc.width + uint(x)], 1u);
}
