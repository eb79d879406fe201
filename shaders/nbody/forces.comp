// All-pairs Plummer-softened gravitational accelerations, tile by tile through shared memory,
// BODIES bodies per invocation; then the leapfrog half kick v += a * half_dt.
// Computes the rows [first, first + rows) of the n bodies: one device's share when several split
// them. Reads binding 0 (all n positions, xyz+mass), writes binding 1 (the rows' accelerations),
// updates binding 2 (the rows' velocities; untouched when half_dt is 0); row r of those two
// buffers is body first + r.
#version 450
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require
#include "nbody_layout.h"
#include "grid.glsl"

layout(local_size_x_id = NBODY_SC_WORKGROUP) in;
layout(constant_id = NBODY_FORCES_BODIES) const uint BODIES = 4;  // bodies accumulated by each invocation
layout(constant_id = NBODY_FORCES_TILE) const uint TILE = 256;    // bodies staged per tile: a multiple of the
                                                                  // workgroup size and of UNROLL
const uint UNROLL = 8;  // tile bodies per step of the inner loop

layout(std430, binding = 0) readonly restrict buffer Positions { vec4 pos[]; };
layout(std430, binding = 1) writeonly restrict buffer Accelerations { vec4 acc[]; };
layout(std430, binding = 2) restrict buffer Velocities { vec4 vel[]; };
layout(push_constant) uniform Push {
  uint n;
  float eps2;
  float gravity;
  float half_dt;
  uint first;
  uint rows;
} pc;

shared vec4 tile[TILE];

// Adds the pull of body b (xyz, mass in w) on a body at p. 20 flops by the GPU Gems count, 12
// instructions: 3 subtractions, 3 FMAs for r^2 + eps^2, inversesqrt, 3 multiplies, 3 FMAs.
// A body at p itself or a zero-mass body adds exactly 0, since eps2 > 0 keeps s finite.
vec3 pull(vec3 p, vec4 b, vec3 a) {
  const vec3 r = b.xyz - p;
  const float inv = inversesqrt(fma(r.x, r.x, fma(r.y, r.y, fma(r.z, r.z, pc.eps2))));
  const float s = b.w * inv * inv * inv;
  return fma(r, vec3(s), a);
}

void main() {
  const uint lid = gl_LocalInvocationID.x;
  const uint wg = gl_WorkGroupSize.x;
  // Row k of this invocation is row0 + k * wg, so that each load is contiguous across the
  // workgroup. Rows at or past pc.rows compute on a zero body and store nothing.
  const uint row0 = linear_workgroup_id() * wg * BODIES + lid;
  vec3 p[BODIES];
  vec3 a[BODIES];
  [[unroll]] for (uint k = 0; k < BODIES; ++k) {
    const uint i = row0 + k * wg;
    p[k] = i < pc.rows ? pos[pc.first + i].xyz : vec3(0);
    a[k] = vec3(0);
  }

  for (uint base = 0; base < pc.n; base += TILE) {
    // Orders the previous tile's reads by every invocation before this tile overwrites it.
    barrier();
    for (uint t = lid; t < TILE; t += wg) {
      const uint j = base + t;
      tile[t] = j < pc.n ? pos[j] : vec4(0);  // zero mass: the padding pulls nothing
    }
    // Orders the staging writes before any invocation reads the tile.
    barrier();
    for (uint t = 0; t < TILE; t += UNROLL) {
      [[unroll]] for (uint u = 0; u < UNROLL; ++u) {
        const vec4 b = tile[t + u];
        [[unroll]] for (uint k = 0; k < BODIES; ++k) a[k] = pull(p[k], b, a[k]);
      }
    }
  }

  [[unroll]] for (uint k = 0; k < BODIES; ++k) {
    const uint i = row0 + k * wg;
    if (i >= pc.rows) continue;
    const vec3 g = pc.gravity * a[k];
    acc[i] = vec4(g, 0);
    if (pc.half_dt != 0) vel[i].xyz += pc.half_dt * g;
  }
}
