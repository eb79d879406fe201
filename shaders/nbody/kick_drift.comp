// The first half of a kick-drift-kick leapfrog step: v += a * half_dt, then x += v * dt.
// Moves the rows [first, first + rows) of the bodies. Reads binding 0 (the rows' accelerations),
// updates binding 1 (the rows' velocities) and binding 2 (all positions, of which it moves the
// rows' xyz and keeps the mass in w); row r is body first + r.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "nbody_layout.h"
#include "grid.glsl"

layout(local_size_x_id = NBODY_SC_WORKGROUP) in;

layout(std430, binding = 0) readonly restrict buffer Accelerations { vec4 acc[]; };
layout(std430, binding = 1) restrict buffer Velocities { vec4 vel[]; };
layout(std430, binding = 2) restrict buffer Positions { vec4 pos[]; };
layout(push_constant) uniform Push {
  uint rows;
  float dt;
  float half_dt;
  uint first;
} pc;

void main() {
  const uint i = linear_workgroup_id() * gl_WorkGroupSize.x + gl_LocalInvocationID.x;
  if (i >= pc.rows) return;
  const vec3 v = vel[i].xyz + pc.half_dt * acc[i].xyz;
  vel[i].xyz = v;
  pos[pc.first + i].xyz += pc.dt * v;
}
