// sort/radix/upsweep over 8- or 16-bit keys read as they are kept (8- and 16-bit storage).
// Reads binding 0 (count), 1 or 2 (keys A or B, as PASS_FROM_B says) and 3 (state); writes state[table + digit * tiles + tile].
#version 450
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require
#extension GL_EXT_shader_16bit_storage : require
#extension GL_EXT_shader_8bit_storage : require

#define RADIX_NARROW_KEYS
#include "radix_upsweep.glsl"
