// sort/radix/scatter_full_tiles over 8- or 16-bit keys loaded and stored as they are kept (8- and
// 16-bit storage), as sort/radix/scatter_narrow.
// Reads count, the keys/values pair PASS_FROM_B names and state; writes the other pair and the look-back words (radix_scatter.glsl).
#version 450
#pragma use_vulkan_memory_model
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_shader_16bit_storage : require
#extension GL_EXT_shader_8bit_storage : require
#define RADIX_FULL_TILES
#define RADIX_NARROW_KEYS
#include "radix_scatter.glsl"
