// sort/radix/histogram over 8- or 16-bit keys read as they are kept (8- and 16-bit storage).
// Reads binding 0 (count) and 1 (keys); updates binding 2 (state).
#version 450
#extension GL_GOOGLE_include_directive : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_EXT_control_flow_attributes : require
#extension GL_EXT_shader_16bit_storage : require
#extension GL_EXT_shader_8bit_storage : require

#define RADIX_NARROW_KEYS
#include "radix_histogram.glsl"
