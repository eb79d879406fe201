// The facts about key and value types that the sorting kernels and their host code share (C++
// and GLSL): the KEY_KIND ids of the order-preserving maps (keys.glsl) and the widths the kernels
// take. C++ reads them through src/sort/key_types.hpp, the table of key types, which gives each
// KeyType its kind and static_asserts its width against these; GLSL through keys.glsl. Nothing
// here is copied by hand. Only macros, so that C++ may include it at any scope.
#ifndef VKC_KEY_LAYOUT_H
#define VKC_KEY_LAYOUT_H

// The KEY_KIND specialization constant: how a key's bits map to an unsigned word of the same
// order (keys.glsl holds the maps).
#define KEY_KIND_UINT 0u   // as is
#define KEY_KIND_INT 1u    // two's complement: the sign bit flipped
#define KEY_KIND_FLOAT 2u  // IEEE 754: negatives reversed below positives, -0 before +0, NaNs last in both orders

// Keys and values travel as 32-bit words (KEY_WORDS, VALUE_WORDS): a key is 1 or 2 of them
// (the low word first), a value 0 (keys only), 1 or 2.
#define KEY_MAX_WORDS 2u
#define VALUE_MAX_WORDS 2u

#endif
