// Tone-maps an image of hit counts into RGBA8: brightness 1 - exp(-exposure * count) of a warm
// white, opaque black where nothing fell. Reads binding 0 (counts), writes binding 1 (RGBA8
// packed in one uint per pixel, red in the low byte).
#version 450
#extension GL_GOOGLE_include_directive : require
#include "grid.glsl"

layout(local_size_x_id = 0) in;

layout(std430, binding = 0) readonly restrict buffer Counts { uint counts[]; };
layout(std430, binding = 1) writeonly restrict buffer Pixels { uint pixels[]; };
layout(push_constant) uniform Push {
  uint pixels;
  float exposure;
} pc;

void main() {
  const uint i = linear_workgroup_id() * gl_WorkGroupSize.x + gl_LocalInvocationID.x;
  if (i >= pc.pixels) return;
  const float b = 1.0 - exp(-pc.exposure * float(counts[i]));
  // Dim pixels are a cool grey, crowded ones saturate to white.
  const vec3 colour = b * vec3(0.8 + 0.2 * b, 0.85 + 0.15 * b, 1.0);
  pixels[i] = packUnorm4x8(vec4(colour, 1.0));
}
