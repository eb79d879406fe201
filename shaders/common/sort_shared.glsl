// Sort elements in shared memory: one array per word, each SHARED_ELEMS long, so that
// consecutive positions fall in consecutive banks whatever the key and value widths.
// Expects specialization constants SHARED_ELEMS, KEY_WORDS and VALUE_WORDS declared first.
#ifndef VKC_SORT_SHARED_GLSL
#define VKC_SORT_SHARED_GLSL

#include "compare_exchange.glsl"

shared uint s_k0[SHARED_ELEMS];
shared uint s_k1[KEY_WORDS == 2u ? SHARED_ELEMS : 1u];
shared uint s_v0[VALUE_WORDS >= 1u ? SHARED_ELEMS : 1u];
shared uint s_v1[VALUE_WORDS == 2u ? SHARED_ELEMS : 1u];

void put_shared(uint a, Elem e) {
  s_k0[a] = e.k0;
  if (KEY_WORDS == 2u) s_k1[a] = e.k1;
  if (VALUE_WORDS >= 1u) s_v0[a] = e.v0;
  if (VALUE_WORDS == 2u) s_v1[a] = e.v1;
}

Elem get_shared(uint a) {
  Elem e = Elem(s_k0[a], 0u, 0u, 0u);
  if (KEY_WORDS == 2u) e.k1 = s_k1[a];
  if (VALUE_WORDS >= 1u) e.v0 = s_v0[a];
  if (VALUE_WORDS == 2u) e.v1 = s_v1[a];
  return e;
}

#endif
