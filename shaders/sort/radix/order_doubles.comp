// Turns 64-bit float keys back from their ordered form in place after the sort. The histogram
// pass made that form as it read them (sort/radix/histogram, DOUBLES), so that the radix passes
// between sort them as unsigned 64-bit integers: a double's ordered form needs both of its words
// (its sign and its NaN test span them), and the passes move a key one word at a time.
// Reads binding 0 (count); updates binding 1 (keys, as (low, high) word pairs).
#version 450
#extension GL_GOOGLE_include_directive : require

#include "radix_layout.h"

layout(local_size_x_id = RADIX_SC_WORKGROUP) in;
layout(constant_id = RADIX_ORDER_DOUBLES_DESCENDING) const bool DESCENDING = false;

#include "grid.glsl"
#include "keys.glsl"

layout(std430, binding = 0) readonly buffer Count { uint count_value; };
layout(std430, binding = 1) buffer Keys { uvec2 keys[]; };
layout(push_constant) uniform Push { uint max_count; } pc;

void main() {
  const uint n = min(count_value, pc.max_count);
  const uint i = linear_workgroup_id() * gl_WorkGroupSize.x + gl_LocalInvocationIndex;
  if (i >= n) return;
  keys[i] = from_ordered64(keys[i], KEY_KIND_FLOAT, DESCENDING);
}
