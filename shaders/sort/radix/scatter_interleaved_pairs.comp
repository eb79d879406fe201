// A digit pass of 32-bit keys with 32-bit values as sort/radix/scatter that can read and write
// them interleaved, each pair with one 8-byte store, in the layout that splits the pairs between
// the keys buffer and the values buffer of each buffer pair (radix_scatter.glsl,
// RADIX_INTERLEAVED_PAIRS; radix.cpp, interleaved_pairs_from, says when it is used). The first pass
// that runs reads the caller's planar arrays and the last writes them.
// Reads count, the keys/values pair PASS_FROM_B names and state; writes the other pair and the look-back words (radix_scatter.glsl).
#version 450
#pragma use_vulkan_memory_model
#extension GL_GOOGLE_include_directive : require
#define RADIX_INTERLEAVED_PAIRS
#include "radix_scatter.glsl"
