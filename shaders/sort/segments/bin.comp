// Sorts the segments into size classes (segments_layout.h's plan): one invocation per segment.
// The first dispatch (SCATTER false) counts each class's segments, sort/segments/args.comp turns
// the counts into each class's place in the list, and the second dispatch writes every segment's
// id into its class's place. Empty segments go nowhere. Each subgroup adds to a class's counter
// once for all of its lanes of that class.
#version 450
#extension GL_GOOGLE_include_directive : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_vote : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#include "segments_layout.h"

layout(local_size_x_id = SEG_SC_WORKGROUP) in;
layout(constant_id = SEG_E_BITS) const uint E_BITS = 3;
layout(constant_id = SEG_TILE_BITS) const uint TILE_BITS = 10;
layout(constant_id = SEG_CONSTANTS) const bool SCATTER = false;

#include "grid.glsl"

layout(std430, binding = 0) readonly restrict buffer Begins { uint begins[]; };
layout(std430, binding = 1) readonly restrict buffer Ends { uint ends[]; };
layout(std430, binding = 2) restrict buffer Plan { uint plan[]; };
// The segment count: the caller's GPU-side word, or the plan's SEG_PLAN_SEGMENTS word.
layout(std430, binding = 3) readonly restrict buffer Count { uint segment_count; };

// segments: the most segments the count may name (the grid is sized for them).
layout(push_constant) uniform Push { uint segments; } pc;

// The class of a segment of n > 0 elements: the smallest slot of at least 2^E_BITS that holds it,
// or, past a tile, one class per power of two, the longest first (segments_layout.h).
uint size_class(uint n) {
  if (n > (1u << TILE_BITS)) return TILE_BITS + 32u - (findMSB(n - 1u) + 1u);
  return n <= (1u << E_BITS) ? 0u : findMSB(n - 1u) + 1u - E_BITS;
}

void main() {
  const uint id = linear_workgroup_id() * gl_WorkGroupSize.x + gl_LocalInvocationIndex;
  const uint n = id < min(segment_count, pc.segments) && ends[id] > begins[id] ? ends[id] - begins[id] : 0u;
  const uint c = n != 0u ? size_class(n) : ~0u;
  bool done = c == ~0u;
  // Every lane stays in the loop, so that the subgroup operations see the whole subgroup; each
  // round serves the lowest class that a lane still waits for.
  while (!subgroupAll(done)) {
    const uint serving = subgroupMin(done ? ~0u : c);
    const bool mine = !done && c == serving;
    const uvec4 peers = subgroupBallot(mine);
    uint first = 0u;
    if (subgroupElect()) {
      const uint at = (SCATTER ? SEG_PLAN_CURSORS : SEG_PLAN_COUNTS) + serving;
      first = atomicAdd(plan[at], subgroupBallotBitCount(peers));
    }
    first = subgroupBroadcastFirst(first);
    if (mine) {
      if (SCATTER) plan[SEG_PLAN_LIST + first + subgroupBallotExclusiveBitCount(peers)] = id;
      done = true;
    }
  }
}
