// Between the two bin.comp dispatches: each size class's first place in the plan's list (the
// cursor that the scatter advances) and the indirect dispatch of the kernel that sorts the class:
// one workgroup per SLOTS segments for tile.comp's classes, one per segment longer than a tile
// for SEG_LARGE, whose dispatch sorts every class from TILE_BITS on (segments_layout.h). One
// invocation per class.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "segments_layout.h"

layout(local_size_x = SEG_MAX_CLASSES) in;
layout(constant_id = SEG_E_BITS) const uint E_BITS = 3;
layout(constant_id = SEG_TILE_BITS) const uint TILE_BITS = 10;

layout(std430, binding = 0) restrict buffer Plan { uint plan[]; };

// x_limit: the device's largest grid width; a class's grid takes rows of it (grid.glsl).
layout(push_constant) uniform Push { uint x_limit; } pc;

void main() {
  const uint c = gl_LocalInvocationIndex;
  uint first = 0u;
  for (uint d = 0u; d < c; ++d) first += plan[SEG_PLAN_COUNTS + d];
  uint count = plan[SEG_PLAN_COUNTS + c];
  if (c == SEG_LARGE) {
    uint large_first = 0u;
    for (uint d = 0u; d < TILE_BITS; ++d) large_first += plan[SEG_PLAN_COUNTS + d];
    count += first - large_first;
    plan[SEG_PLAN_LARGE_FIRST] = large_first;
    plan[SEG_PLAN_LARGE_COUNT] = count;
  }
  const uint slots_bits = c == SEG_LARGE || E_BITS + c > TILE_BITS ? 0u : TILE_BITS - E_BITS - c;
  const uint groups = (count + (1u << slots_bits) - 1u) >> slots_bits;
  const uint x = min(groups, pc.x_limit);
  plan[SEG_PLAN_CURSORS + c] = first;
  plan[SEG_PLAN_ARGS + 3u * c] = x;
  plan[SEG_PLAN_ARGS + 3u * c + 1u] = x == 0u ? 1u : (groups + x - 1u) / x;
  plan[SEG_PLAN_ARGS + 3u * c + 2u] = 1u;
}
