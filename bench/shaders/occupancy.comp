// Occupancy probe (bench/probes/occupancy.cpp): how many workgroups that declare SHARED_WORDS
// words of shared memory the device keeps resident at once. Each workgroup counts itself in
// `live` when it starts, raises `peak` to the count it saw, spins for `spins` steps of dependent
// arithmetic and leaves. Few registers, so shared memory and the thread count are what limit it.
#version 450

layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint SHARED_WORDS = 1024;

layout(std430, binding = 0) coherent buffer Counters {
  uint live;
  uint peak;
  uint sink;
} counters;
layout(push_constant) uniform Push { uint spins; } pc;

shared uint scratch[SHARED_WORDS];

void main() {
  if (gl_LocalInvocationIndex == 0) atomicMax(counters.peak, atomicAdd(counters.live, 1u) + 1u);
  // Every word is written so that the compiler keeps the whole declaration.
  for (uint i = gl_LocalInvocationIndex; i < SHARED_WORDS; i += gl_WorkGroupSize.x) scratch[i] = i * 2654435761u;
  // Orders the writes above before the read below, which takes another invocation's word.
  barrier();
  uint x = scratch[(gl_LocalInvocationIndex * 97u) % SHARED_WORDS];
  for (uint k = 0; k < pc.spins; ++k) x = x * 1664525u + 1013904223u;
  if (x == 0x9e3779b9u) atomicAdd(counters.sink, 1u);  // keeps the spin from being optimized out
  // The workgroup leaves the count only when all of its invocations are done spinning.
  barrier();
  if (gl_LocalInvocationIndex == 0) atomicAdd(counters.live, 0xffffffffu);
}
