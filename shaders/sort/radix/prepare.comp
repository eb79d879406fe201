// Turns the digit histograms into each digit's first index, gives passes whose digit is the same for every key no workgroups
// (each pass's grid is written here, and copy_back's), and decides which buffer pair each pass reads. Reads binding 0 (count); updates binding 1
// (state: offsets, pass info, dispatch grids, final).
#version 450
#extension GL_GOOGLE_include_directive : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require

layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint PASSES = 4;
layout(constant_id = 2) const uint MAX_SUBGROUPS = 64;
layout(constant_id = 3) const bool FLOAT_KEYS = true;  // a key's round trip through the ordered form may change it
#define RADIX_STATE_ONLY
#define WORKGROUP_SCAN_MAX_SUBGROUPS MAX_SUBGROUPS

#include "radix.glsl"
#include "workgroup_scan.glsl"

layout(std430, binding = 0) readonly buffer Count { uint count_value; };
layout(std430, binding = 1) buffer State { uint state[]; };
layout(push_constant) uniform Push {
  uint max_count;
  uint grid_x, grid_y;  // a running pass's scatter grid, as the host splits its tiles
  uint copy_x, copy_y;  // copy_back's grid, when the data ends in the B buffers
} pc;

const uint WG = gl_WorkGroupSize.x;
const uint DIGITS_PER_INVOCATION = (RADIX + WG - 1u) / WG;
shared uint s_skip[8];

// A VkDispatchIndirectCommand.
void set_grid(uint word, uvec2 grid) {
  state[word] = grid.x;
  state[word + 1u] = grid.y;
  state[word + 2u] = 1u;
}

void main() {
  const uint n = min(count_value, pc.max_count);
  const uint first = (gl_SubgroupID * gl_SubgroupSize + gl_SubgroupInvocationID) * DIGITS_PER_INVOCATION;
  if (gl_LocalInvocationIndex < 8u) s_skip[gl_LocalInvocationIndex] = 0u;
  // Orders the flags' zeroing before any invocation sets one.
  barrier();
  for (uint p = 0u; p < PASSES; ++p) {
    uint counts[DIGITS_PER_INVOCATION];
    uint sum = 0u;
    for (uint r = 0u; r < DIGITS_PER_INVOCATION; ++r) {
      counts[r] = first + r < RADIX ? state[STATE_OFFSETS + p * RADIX + first + r] : 0u;
      if (counts[r] == n) s_skip[p] = 1u;  // one digit holds every key
      sum += counts[r];
    }
    uint total;
    uint running = workgroup_exclusive_add(sum, total);
    for (uint r = 0u; r < DIGITS_PER_INVOCATION; ++r) {
      if (first + r < RADIX) state[STATE_OFFSETS + p * RADIX + first + r] = running;
      running += counts[r];
    }
  }
  // Orders every skip flag before invocation 0 reads them.
  barrier();
  if (gl_LocalInvocationIndex != 0u) return;
  uint in_b = 0u;  // where the data is before pass p
  bool moved = false;
  for (uint p = 0u; p < PASSES; ++p) {
    // When every pass could be skipped, float keys still take the last one, so that each key
    // is written back in its canonical form (a NaN's sign bit cleared); integers are left as
    // they are, already sorted.
    const bool skip = s_skip[p] != 0u && (moved || p + 1u < PASSES || !FLOAT_KEYS);
    state[STATE_PASS_INFO + p] = in_b != 0u ? PASS_FROM_B : 0u;
    set_grid(STATE_DISPATCH + p * 3u, skip ? uvec2(0u, 1u) : uvec2(pc.grid_x, pc.grid_y));
    set_grid(STATE_SCAN_DISPATCH + p * 3u, uvec2(skip ? 0u : RADIX, 1u));
    if (!skip) {
      in_b ^= 1u;
      moved = true;
    }
  }
  state[STATE_FINAL] = in_b;
  set_grid(STATE_COPY_DISPATCH, in_b != 0u ? uvec2(pc.copy_x, pc.copy_y) : uvec2(0u, 1u));
}
