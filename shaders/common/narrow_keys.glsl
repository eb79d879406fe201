// What widen.comp and narrow.comp (sort/narrow_keys/) share: the constants of a narrow key type
// and where its keys lie. Keys of KEY_BITS (8 or 16) bits are packed, little-endian: key i is
// bits [(i % PER_WORD) * KEY_BITS, ...) of word i / PER_WORD. Bindings: 0 count (read), 1 the
// packed keys, 2 their ordered images, one word each.
#ifndef VKC_NARROW_KEYS_GLSL
#define VKC_NARROW_KEYS_GLSL

#extension GL_GOOGLE_include_directive : require
#include "sort_layout.h"
#include "grid.glsl"
#include "keys.glsl"

layout(local_size_x_id = SORT_SC_WORKGROUP) in;
layout(constant_id = NARROW_KEY_BITS) const uint KEY_BITS = 16;
layout(constant_id = NARROW_KEY_KIND) const uint KEY_KIND = KEY_KIND_UINT;
layout(constant_id = NARROW_EXPONENT) const uint EXPONENT = 0;
layout(constant_id = NARROW_DESCENDING) const bool DESCENDING = false;

const uint PER_WORD = 32u / KEY_BITS;
const uint KEY_MASK = (1u << KEY_BITS) - 1u;

layout(std430, binding = 0) readonly buffer Count { uint count_value; };
layout(push_constant) uniform Push { uint max_count; } pc;

// The packed word this invocation handles, and the count of keys.
uint word_index() { return linear_workgroup_id() * gl_WorkGroupSize.x + gl_LocalInvocationID.x; }
uint key_count() { return min(count_value, pc.max_count); }

#endif
