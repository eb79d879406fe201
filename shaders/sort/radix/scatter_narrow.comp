// One LSD radix digit pass as sort/radix/scatter, over 8- or 16-bit keys loaded and stored as
// they are kept (8- and 16-bit storage), so that a narrow key moves its own bytes, not a 32-bit image.
// Reads count, the keys/values pair PASS_FROM_B names and state; writes the other pair and the look-back words (radix_scatter.glsl).
#version 450
#pragma use_vulkan_memory_model
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_shader_16bit_storage : require
#extension GL_EXT_shader_8bit_storage : require
#define RADIX_NARROW_KEYS
#include "radix_scatter.glsl"
