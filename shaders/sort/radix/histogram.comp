// Counts every digit of every radix pass in one read of the keys (per-workgroup histograms in
// shared memory, added to the state), zeroes the first look-back table, and lets the last
// workgroup to finish prepare the passes (radix_prepare.glsl): one dispatch, where a separate
// prepare kernel costs one more barrier and dependent dispatch (docs/perf-notes.md#radix-histogram).
//
// With TILE_TABLE, the keys are read in chunks of the scatter's tiles, and pass 0's digits are
// also counted per tile into its tile table (state[first_table + digit * tiles + tile]): pass 0
// then needs neither a look-back nor an upsweep of its own, only scan_tiles over this table.
// Otherwise chunks of WG * ITEMS keys, with VECTOR_LOADS read 16 bytes at a time (load_vectors).
// With DOUBLES, the keys are doubles: each is turned into its ordered form as it is read and
// written back in place, so that the sort needs no pass of its own for that (order_doubles.comp
// still turns them back after the last pass).
// Reads binding 0 (count) and 1 (keys; written too with DOUBLES); updates binding 2 (state).
#version 450
#extension GL_GOOGLE_include_directive : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_EXT_control_flow_attributes : require

#include "radix_histogram.glsl"
