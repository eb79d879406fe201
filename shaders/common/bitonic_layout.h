// The specialization-constant ids of the bitonic sort's kernels (sort/bitonic/tile.comp and
// small.comp), shared by the host code (src/sort/bitonic.cpp) and the kernels, which include it
// before declaring their constants. Only macros, so that C++ may include it at any scope.
#ifndef VKC_BITONIC_LAYOUT_H
#define VKC_BITONIC_LAYOUT_H

// Id 0 is each kernel's workgroup size (local_size_x_id).
#define BITONIC_SC_WORKGROUP 0

// tile.comp: one tile per workgroup, the local sort or a stage's merge or global strides.
#define BITONIC_TILE_KEY_WORDS 1    // 1: 32-bit keys, 2: 64-bit keys (key_layout.h)
#define BITONIC_TILE_VALUE_WORDS 2  // 0: keys only, 1 or 2: value words
#define BITONIC_TILE_KEY_KIND 3     // KEY_KIND_* (key_layout.h)
#define BITONIC_TILE_DESCENDING 4
#define BITONIC_TILE_E_BITS 5       // log2 of elements per invocation per sub-tile
#define BITONIC_TILE_SUB_BITS 6     // log2 of sub-tiles held in registers
#define BITONIC_TILE_T_BITS 7       // log2 of the shared tile: log2(workgroup size) + E_BITS
#define BITONIC_TILE_CONSTANTS 8

// small.comp: a whole sort in one workgroup, for one subgroup size.
#define BITONIC_SMALL_KEY_WORDS 1
#define BITONIC_SMALL_VALUE_WORDS 2
#define BITONIC_SMALL_KEY_KIND 3
#define BITONIC_SMALL_DESCENDING 4
#define BITONIC_SMALL_E_BITS 5         // log2 of elements per invocation
#define BITONIC_SMALL_LOG_N 6          // log2 of the network: workgroup size * E
#define BITONIC_SMALL_SUBGROUP_BITS 7  // log2 of the (required) subgroup size
#define BITONIC_SMALL_CONSTANTS 8

#endif
