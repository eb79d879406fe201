// The specialization-constant ids of the bitonic_transpose sort's kernels
// (sort/bitonic_transpose/rows.comp, step.comp and transpose.comp), shared by the host code
// (src/sort/bitonic_transpose.cpp) and the kernels. Only macros, so that C++ may include it at
// any scope.
#ifndef VKC_BITONIC_TRANSPOSE_LAYOUT_H
#define VKC_BITONIC_TRANSPOSE_LAYOUT_H

// Id 0 is the workgroup size (local_size_x_id) of rows and step; transpose's is fixed (16 x 16).
#define BITONIC_TRANSPOSE_SC_WORKGROUP 0

// rows.comp: one stage's strides within rows of B = workgroup-size elements.
#define BITONIC_TRANSPOSE_ROWS_KEY_WORDS 1    // 1: 32-bit keys, 2: 64-bit keys (key_layout.h)
#define BITONIC_TRANSPOSE_ROWS_VALUE_WORDS 2  // 0: keys only, 1 or 2: value words
#define BITONIC_TRANSPOSE_ROWS_KEY_KIND 3     // KEY_KIND_* (key_layout.h)
#define BITONIC_TRANSPOSE_ROWS_DESCENDING 4
#define BITONIC_TRANSPOSE_ROWS_B_BITS 5       // log2 of B
#define BITONIC_TRANSPOSE_ROWS_CONSTANTS 6

// step.comp: one compare-exchange step in global memory.
#define BITONIC_TRANSPOSE_STEP_KEY_WORDS 1
#define BITONIC_TRANSPOSE_STEP_VALUE_WORDS 2
#define BITONIC_TRANSPOSE_STEP_KEY_KIND 3
#define BITONIC_TRANSPOSE_STEP_DESCENDING 4
#define BITONIC_TRANSPOSE_STEP_CONSTANTS 5

// transpose.comp: B x B blocks transposed as raw words.
#define BITONIC_TRANSPOSE_TRANSPOSE_KEY_WORDS 0
#define BITONIC_TRANSPOSE_TRANSPOSE_VALUE_WORDS 1
#define BITONIC_TRANSPOSE_TRANSPOSE_B_BITS 2
#define BITONIC_TRANSPOSE_TRANSPOSE_CONSTANTS 3

#endif
