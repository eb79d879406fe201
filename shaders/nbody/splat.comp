// Splats bodies into an image of hit counts: each body adds 1 to every pixel of a disc of
// `radius` pixels around the pixel under it, in an orthographic view along -z. Reads binding 0
// (positions), updates binding 1 (counts, one uint per pixel, row 0 at the top; the caller
// clears it first).
#version 450
#extension GL_GOOGLE_include_directive : require
#include "nbody_layout.h"
#include "grid.glsl"

layout(local_size_x_id = NBODY_SC_WORKGROUP) in;

layout(std430, binding = 0) readonly restrict buffer Positions { vec4 pos[]; };
layout(std430, binding = 1) restrict buffer Counts { uint counts[]; };
layout(push_constant) uniform Push {
  uint n;
  uint width;
  uint height;
  float centre_x;
  float centre_y;
  float pixels_per_unit;
  int radius;
} pc;

void main() {
  const uint i = linear_workgroup_id() * gl_WorkGroupSize.x + gl_LocalInvocationID.x;
  if (i >= pc.n) return;
  const vec2 q = (pos[i].xy - vec2(pc.centre_x, pc.centre_y)) * pc.pixels_per_unit;
  const float x = floor(q.x + 0.5 * float(pc.width));
  const float y = floor(0.5 * float(pc.height) - q.y);  // +y is up in the image
  // The comparisons also reject NaN positions, and bodies too far out to touch the image.
  const float r = float(pc.radius);
  if (!(x >= -r && y >= -r && x < float(pc.width) + r && y < float(pc.height) + r)) return;
  // r (r + 1) rather than r^2: a rounder disc (a plus sign for r = 1 would be r^2).
  const int reach = pc.radius * (pc.radius + 1);
  for (int dy = -pc.radius; dy <= pc.radius; ++dy) {
    for (int dx = -pc.radius; dx <= pc.radius; ++dx) {
      const int px = int(x) + dx, py = int(y) + dy;
      if (dx * dx + dy * dy > reach || px < 0 || py < 0 || px >= int(pc.width) || py >= int(pc.height)) continue;
      atomicAdd(counts[uint(py) * pc.width + uint(px)], 1u);
    }
  }
}
