// Copies the sorted keys (and values) from the B buffers to A. Dispatched over the grid that the histogram wrote: no workgroups
// unless an odd number of radix passes ran (launching a grid of workgroups that only find nothing to do cost ~0.5 ms at 2^28).
// Reads binding 0 (count), 2 (keys B) and 4 (values B); writes 1 (keys A) and 3 (values A).
#version 450
#extension GL_GOOGLE_include_directive : require

layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint KEY_WORDS = 1;
layout(constant_id = 2) const uint VALUE_WORDS = 0;

#include "grid.glsl"

layout(std430, binding = 0) readonly buffer Count { uint count_value; };
layout(std430, binding = 1) writeonly buffer KeysA { uint keys_a[]; };
layout(std430, binding = 2) readonly buffer KeysB { uint keys_b[]; };
layout(std430, binding = 3) writeonly buffer ValuesA { uint values_a[]; };
layout(std430, binding = 4) readonly buffer ValuesB { uint values_b[]; };
layout(push_constant) uniform Push { uint max_count; } pc;

void main() {
  const uint n = min(count_value, pc.max_count);
  const uint i = linear_workgroup_id() * gl_WorkGroupSize.x + gl_LocalInvocationIndex;
  if (i >= n) return;
  for (uint w = 0u; w < KEY_WORDS; ++w) keys_a[i * KEY_WORDS + w] = keys_b[i * KEY_WORDS + w];
  for (uint w = 0u; w < VALUE_WORDS; ++w) values_a[i * VALUE_WORDS + w] = values_b[i * VALUE_WORDS + w];
}
