// The specialization-constant ids of the odd_even sort's kernels (sort/odd_even/begin.comp, and
// tile_sort.comp and merge_split.comp through tile.glsl), shared by the host code
// (src/sort/odd_even.cpp) and the kernels. Only macros, so that C++ may include it at any scope.
#ifndef VKC_ODD_EVEN_LAYOUT_H
#define VKC_ODD_EVEN_LAYOUT_H

// begin.comp (one invocation): prepares the merge-split rounds.
#define ODD_EVEN_BEGIN_HALF 0  // the merge-split block, TILE / 2
#define ODD_EVEN_BEGIN_CONSTANTS 1

// tile_sort.comp and merge_split.comp: the same constants (tile.glsl).
#define ODD_EVEN_SC_WORKGROUP 0  // local_size_x_id
#define ODD_EVEN_TILE 1          // elements a workgroup holds (even; from shared memory)
#define ODD_EVEN_KEY_WORDS 2     // 1: 32-bit keys, 2: 64-bit keys (key_layout.h)
#define ODD_EVEN_VALUE_WORDS 3   // 0, 1 or 2 words per value
#define ODD_EVEN_KEY_KIND 4      // KEY_KIND_* (key_layout.h)
#define ODD_EVEN_DESCENDING 5
#define ODD_EVEN_CONSTANTS 6

#endif
