// One LSD radix digit pass as sort/radix/scatter, with a second copy of the loads and the scatter
// for full tiles, which every tile but the last is: there the keys' loads need no clamp, no key a
// stand-in and no store a check against the count (radix.cpp says where it is used).
// Reads count, the keys/values pair PASS_FROM_B names and state; writes the other pair and the look-back words (radix_scatter.glsl).
#version 450
#pragma use_vulkan_memory_model
#extension GL_GOOGLE_include_directive : require
#define RADIX_FULL_TILES
#include "radix_scatter.glsl"
