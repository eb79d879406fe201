// A digit pass of 64-bit keys as sort/radix/scatter that writes each key's two words with one
// 8-byte store, in the interleaved layout, where the plain shader stores the digit's word and the
// other word of each key in two phases (radix.cpp, interleaved_passes and paired_last_pass, say
// when it is used). Every key this pipeline writes is interleaved: it runs either every pass of a
// sort whose keys stay interleaved, or the last pass, which writes the caller's layout
// (radix_prepare.glsl).
// Reads count, the keys/values pair PASS_FROM_B names and state; writes the other pair and the look-back words (radix_scatter.glsl).
#version 450
#pragma use_vulkan_memory_model
#extension GL_GOOGLE_include_directive : require
#define RADIX_PAIRED_WRITES
#include "radix_scatter.glsl"
