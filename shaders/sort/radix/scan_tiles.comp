// Reduce-then-scan, step 2 of a radix pass: for one digit per workgroup, the exclusive prefix of its tile counts plus the
// digit's first index. Reads binding 0 (count); updates binding 1 (state[table + digit * tiles + tile]).
#version 450
#extension GL_GOOGLE_include_directive : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_EXT_control_flow_attributes : require

#include "radix_layout.h"

layout(local_size_x_id = RADIX_SC_WORKGROUP) in;
layout(constant_id = RADIX_SCAN_TILES_ITEMS) const uint ITEMS = 8;
layout(constant_id = RADIX_SCAN_TILES_MAX_SUBGROUPS) const uint MAX_SUBGROUPS = 64;
layout(constant_id = RADIX_SCAN_TILES_TILE) const uint TILE = 4096;
#define RADIX_STATE_ONLY
#define WORKGROUP_SCAN_MAX_SUBGROUPS MAX_SUBGROUPS

#include "grid.glsl"
#include "radix.glsl"
#include "workgroup_scan.glsl"

layout(std430, binding = 0) readonly buffer Count { uint count_value; };
layout(std430, binding = 1) buffer State { uint state[]; };
layout(push_constant) uniform Push { RADIX_PASS_PUSH_FIELDS } pc;

const uint WG = gl_WorkGroupSize.x;

// Each round covers WG * ITEMS counts. Subgroup s takes the run [s * size * ITEMS, (s + 1) *
// size * ITEMS) of the round, and lane l its counts l, l + size, ...: every load and store of a
// subgroup is contiguous. (A run per invocation instead, the natural order for one workgroup
// scan, makes each load instruction touch a sector per lane.)
void main() {
  const uint n = min(count_value, pc.max_count);
  const uint digit = linear_workgroup_id();
  if (digit >= RADIX) return;
  const uint used = n / TILE + (n % TILE != 0u ? 1u : 0u);  // tiles that hold keys
  const uint row = pc.table + digit * pc.tiles;
  const uint size = gl_SubgroupSize;
  uint carry = state[STATE_OFFSETS + pc.pass * RADIX + digit];
  for (uint round = 0u; round < used; round += WG * ITEMS) {
    const uint first = round + gl_SubgroupID * size * ITEMS + gl_SubgroupInvocationID;
    uint counts[ITEMS];
    [[unroll]] for (uint k = 0u; k < ITEMS; ++k) {
      const uint t = first + k * size;
      counts[k] = t < used ? state[row + t] : 0u;
    }
    // The prefix of each count within its subgroup's run, and the run's total.
    uint within[ITEMS];
    uint run_total = 0u;
    [[unroll]] for (uint k = 0u; k < ITEMS; ++k) {
      within[k] = run_total + subgroupExclusiveAdd(counts[k]);
      run_total += subgroupAdd(counts[k]);
    }
    uint total;
    const uint before = workgroup_exclusive_add(subgroupElect() ? run_total : 0u, total);
    const uint base = carry + subgroupBroadcastFirst(before);  // the runs of earlier subgroups
    [[unroll]] for (uint k = 0u; k < ITEMS; ++k) {
      const uint t = first + k * size;
      if (t < used) state[row + t] = base + within[k];
    }
    carry += total;
  }
}
