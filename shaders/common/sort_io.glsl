// The buffers every sorting kernel binds and the loads and stores of sort elements: keys are
// mapped to their ordered form on load and back on store (keys.glsl), values travel as raw words.
// Binding 0: the element count (one uint); 1: keys; 2: values (any buffer when VALUE_WORDS is 0).
// Expects specialization constants KEY_WORDS, VALUE_WORDS, KEY_KIND and DESCENDING declared first.
#ifndef VKC_SORT_IO_GLSL
#define VKC_SORT_IO_GLSL

#include "compare_exchange.glsl"
#include "keys.glsl"

layout(std430, binding = 0) readonly restrict buffer Count { uint count; };
layout(std430, binding = 1) restrict buffer Keys { uint keys[]; };
layout(std430, binding = 2) restrict buffer Values { uint values[]; };

Elem load_elem(uint q) {
  Elem e = Elem(0u, 0u, 0u, 0u);
  if (KEY_WORDS == 1u) {
    e.k0 = to_ordered32(keys[q], KEY_KIND, DESCENDING);
  } else {
    const uvec2 k = to_ordered64(uvec2(keys[2u * q], keys[2u * q + 1u]), KEY_KIND, DESCENDING);
    e.k0 = k.x;
    e.k1 = k.y;
  }
  if (VALUE_WORDS == 1u) e.v0 = values[q];
  if (VALUE_WORDS == 2u) {
    e.v0 = values[2u * q];
    e.v1 = values[2u * q + 1u];
  }
  return e;
}

void store_elem(uint q, Elem e) {
  if (KEY_WORDS == 1u) {
    keys[q] = from_ordered32(e.k0, KEY_KIND, DESCENDING);
  } else {
    const uvec2 k = from_ordered64(uvec2(e.k0, e.k1), KEY_KIND, DESCENDING);
    keys[2u * q] = k.x;
    keys[2u * q + 1u] = k.y;
  }
  if (VALUE_WORDS == 1u) values[q] = e.v0;
  if (VALUE_WORDS == 2u) {
    values[2u * q] = e.v0;
    values[2u * q + 1u] = e.v1;
  }
}

#endif
