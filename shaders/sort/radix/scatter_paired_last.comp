// The last digit pass of 64-bit keys as sort/radix/scatter, writing each key's two words with one
// 8-byte store: that pass writes the caller's interleaved layout, where the plain shader stores the
// digit's word and the other word of each key in two phases, half of every sector at a time
// (radix.cpp, paired_last_pass, says when it is used). Every key this pipeline writes is
// interleaved: when pass 7 runs it is the last running pass (radix_prepare.glsl).
// Reads count, the keys/values pair PASS_FROM_B names and state; writes the other pair and the look-back words (radix_scatter.glsl).
#version 450
#pragma use_vulkan_memory_model
#extension GL_GOOGLE_include_directive : require
#define RADIX_PAIRED_WRITES
#include "radix_scatter.glsl"
