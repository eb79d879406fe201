// One LSD radix digit pass as sort/radix/scatter, matching equal digits with subgroupPartitionNV (NVIDIA's match-any).
// Reads count, the keys/values pair PASS_FROM_B names and state; writes the other pair and the look-back words (radix_scatter.glsl).
#version 450
#pragma use_vulkan_memory_model
#extension GL_GOOGLE_include_directive : require
#define RADIX_PARTITIONED
#include "radix_scatter.glsl"
