// Tone-maps an image of hit counts into RGBA8: a pixel lit by k bodies gets brightness
// 0.25 + 0.75 log(k) / log(white), saturating at `white`, of a warm white; opaque black where
// nothing fell. Reads binding 0 (counts), writes binding 1 (RGBA8 packed in one uint per
// pixel, red in the low byte).
#version 450
#extension GL_GOOGLE_include_directive : require
#include "nbody_layout.h"
#include "grid.glsl"

layout(local_size_x_id = NBODY_SC_WORKGROUP) in;

layout(std430, binding = 0) readonly restrict buffer Counts { uint counts[]; };
layout(std430, binding = 1) writeonly restrict buffer Pixels { uint pixels[]; };
layout(push_constant) uniform Push {
  uint pixels;
  float white;
} pc;

void main() {
  const uint i = linear_workgroup_id() * gl_WorkGroupSize.x + gl_LocalInvocationID.x;
  if (i >= pc.pixels) return;
  const float k = float(counts[i]);
  // A log scale, so that a sparse halo and a dense core both show; one body is still visible.
  const float t = pc.white > 1.0 ? clamp(log(max(k, 1.0)) / log(pc.white), 0.0, 1.0) : 1.0;
  const float b = k > 0.0 ? mix(0.25, 1.0, t) : 0.0;
  // Dim pixels are a cool grey, crowded ones saturate to white.
  const vec3 colour = b * vec3(0.8 + 0.2 * b, 0.85 + 0.15 * b, 1.0);
  pixels[i] = packUnorm4x8(vec4(colour, 1.0));
}
