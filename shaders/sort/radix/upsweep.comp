// Reduce-then-scan, step 1 of a radix pass: each tile's digit counts, with no workgroup waiting on another.
// Reads binding 0 (count), 1 or 2 (keys A or B, as PASS_FROM_B says) and 3 (state); writes state[table + digit * tiles + tile].
#version 450
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require

#include "radix_upsweep.glsl"
