// Prepares the merge-split rounds from the GPU-side count: their workgroup grid, and zeroed counters.
// Reads binding 0 (count), writes binding 1 (control).
#version 450
#extension GL_GOOGLE_include_directive : require
#include "odd_even_layout.h"
#include "control.glsl"

layout(local_size_x = 1) in;
layout(constant_id = ODD_EVEN_BEGIN_HALF) const uint HALF = 2048;  // the merge-split block, TILE / 2
layout(std430, binding = 0) readonly restrict buffer Count { uint count; };
VKC_ODD_EVEN_CONTROL(1)
layout(push_constant) uniform Push {
  uint max_groups_x;  // the device's maxComputeWorkGroupCount[0]
} pc;

void main() {
  const uint n = count;
  const uint blocks = n / HALF + ((n % HALF) != 0u ? 1u : 0u);
  // One workgroup per pair of the round with more pairs; two blocks or fewer are one tile,
  // which the tile sort has sorted already.
  const uint pairs = blocks > 2u ? blocks / 2u : 0u;
  const uint x = min(pairs, pc.max_groups_x);
  control.args = uvec3(x, x == 0u ? 0u : (pairs + x - 1u) / x, 1u);
  control.changed = 0u;
  control.done = 0u;
  control.rounds = 0u;
}
