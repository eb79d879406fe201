// One LSD radix digit pass: ranks tiles of keys by their digit with subgroup ballots and scatters keys (and values) stably.
// Reads count, the keys/values pair PASS_FROM_B names and state; writes the other pair and the look-back words (radix_scatter.glsl).
#version 450
#pragma use_vulkan_memory_model
#extension GL_GOOGLE_include_directive : require
#include "radix_scatter.glsl"
