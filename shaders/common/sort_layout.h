// The specialization-constant ids of the sort path's kernels outside any one algorithm:
// sort/iota.comp (argsort's initial values, src/sort/sort.cpp), sort/run_search.comp (the
// boundaries of a merged order in sorted runs, src/sort/out_of_core.cpp) and sort/narrow_keys/
// (8- and 16-bit keys to and from their ordered images, src/sort/narrow_keys.cpp), shared by
// that host code and the kernels. Only macros, so that C++ may include it at any scope.
#ifndef VKC_SORT_LAYOUT_H
#define VKC_SORT_LAYOUT_H

// Id 0 is each kernel's workgroup size (local_size_x_id).
#define SORT_SC_WORKGROUP 0

// iota.comp
#define IOTA_WORDS 1  // words per value: 1 or 2 (key_layout.h's VALUE_MAX_WORDS)
#define IOTA_CONSTANTS 2

// run_search.comp
#define RUN_SEARCH_KEY_WORDS 1  // 1: 32-bit keys, 2: 64-bit keys (key_layout.h)
#define RUN_SEARCH_KEY_KIND 2   // KEY_KIND_* (key_layout.h)
#define RUN_SEARCH_DESCENDING 3
#define RUN_SEARCH_KEY_BITS 4   // 8 or 16: packed narrow keys; 32 otherwise
#define RUN_SEARCH_EXPONENT 5   // narrow floats: the exponent field (keys.glsl, to_ordered_narrow)
#define RUN_SEARCH_CONSTANTS 6

// narrow_keys/widen.comp and narrow_keys/narrow.comp
#define NARROW_KEY_BITS 1    // 8 or 16
#define NARROW_KEY_KIND 2    // KEY_KIND_* (key_layout.h)
#define NARROW_EXPONENT 3    // floats: the exponent field, all ones
#define NARROW_DESCENDING 4
#define NARROW_CONSTANTS 5

#endif
