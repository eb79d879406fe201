// Counts every digit of every radix pass in one read of the keys: per-workgroup histograms in shared memory, added to state.
// Reads binding 0 (count) and 1 (keys); adds to binding 2 (state[STATE_OFFSETS + pass * 256 + digit]).
#version 450
#extension GL_GOOGLE_include_directive : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_EXT_control_flow_attributes : require

layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint ITEMS = 16;     // keys per invocation
layout(constant_id = 2) const uint KEY_WORDS = 1;
layout(constant_id = 3) const uint KEY_KIND = 0;
layout(constant_id = 4) const bool DESCENDING = false;
layout(constant_id = 5) const uint PASSES = 4;

#include "grid.glsl"
#include "radix.glsl"

layout(std430, binding = 0) readonly buffer Count { uint count_value; };
layout(std430, binding = 1) readonly buffer Keys { uint keys[]; };
layout(std430, binding = 2) buffer State { uint state[]; };
layout(push_constant) uniform Push { uint max_count; } pc;

const uint WG = gl_WorkGroupSize.x;
shared uint s_hist[PASSES * RADIX];

void main() {
  const uint n = min(count_value, pc.max_count);
  const uint base = linear_workgroup_id() * WG * ITEMS;
  if (base >= n) return;
  const uint lid = gl_LocalInvocationIndex;
  for (uint i = lid; i < PASSES * RADIX; i += WG) s_hist[i] = 0u;
  // Orders the zeroing before the counting.
  barrier();
  // Indices past the count are clamped (and not counted), so all loads can be in flight at once.
  uvec2 raw[ITEMS];
  [[unroll]] for (uint k = 0u; k < ITEMS; ++k) {
    const uint i = min(base + k * WG + lid, n - 1u);
    raw[k] = uvec2(keys[i * KEY_WORDS], KEY_WORDS == 2u ? keys[i * 2u + 1u] : 0u);
  }
  [[unroll]] for (uint k = 0u; k < ITEMS; ++k) {
    if (base + k * WG + lid >= n) break;
    const uvec2 ordered = to_ordered_key(raw[k]);
    [[unroll]] for (uint p = 0u; p < PASSES; ++p) atomicAdd(s_hist[p * RADIX + digit_of(ordered, p)], 1u);
  }
  // Orders every count before the workgroup's totals are added to the global histogram.
  barrier();
  for (uint i = lid; i < PASSES * RADIX; i += WG) {
    const uint c = s_hist[i];
    if (c != 0u) atomicAdd(state[STATE_OFFSETS + i], c);
  }
}
