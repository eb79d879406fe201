// The segmented sort's kernels (sort/segments/): specialization-constant ids, the output modes
// and the layout of the plan buffer, shared by the host code (src/sort/segmented.cpp) and the
// kernels. Only macros, so that C++ may include it at any scope.
#ifndef VKC_SEGMENTS_LAYOUT_H
#define VKC_SEGMENTS_LAYOUT_H

// Id 0 is each kernel's workgroup size (local_size_x_id).
#define SEG_SC_WORKGROUP 0
#define SEG_KEY_WORDS 1      // the key type's words: 1 or 2
#define SEG_VALUE_WORDS 2    // words of a value or index: 0, 1 or 2
#define SEG_KEY_KIND 3       // KEY_KIND_* (key_layout.h)
#define SEG_DESCENDING 4
#define SEG_OUTPUT 5         // SEG_OUTPUT_*
#define SEG_ROWS 6           // segments are rows of push.columns elements (no offsets, no plan)
#define SEG_E_BITS 7         // tile.comp, bin.comp: log2 of elements per invocation
#define SEG_TILE_BITS 8      // tile.comp, bin.comp: log2 of the workgroup's tile (workgroup size * E)
#define SEG_LOG_N 9          // tile.comp: log2 of a slot, the network one segment gets
#define SEG_SUBGROUP_BITS 10 // tile.comp: log2 of the (required) subgroup size
#define SEG_ITEMS 11         // radix.comp: keys per invocation per chunk
#define SEG_MAX_SUBGROUPS 12 // radix.comp: subgroups per workgroup at most
#define SEG_BALLOT_WORDS 13  // radix.comp: words of a subgroup ballot that the subgroup size fills
#define SEG_CONSTANTS 14

// What a segmented sort writes.
#define SEG_OUTPUT_KEYS 0           // sorted keys
#define SEG_OUTPUT_PAIRS 1          // sorted keys and their values
#define SEG_OUTPUT_LOCAL_INDICES 2  // each key's position in its segment, in sorted order; no keys
#define SEG_OUTPUT_GLOBAL_INDICES 3 // the same plus the segment's begin (plus push.base)

// The plan buffer, in 32-bit words: per size class c, the segments' count, the cursor that
// bin_scatter advances (base + count once it is done) and the indirect dispatch of its kernel;
// the segment count where the host gives it (at a 256-byte offset, so that it can be bound); where
// the segments longer than a tile begin in the list, and how many there are; then the segment ids,
// class by class. Class c <= TILE_BITS - E_BITS sorts segments of up to 2^(E_BITS + c) elements in
// slots of that size (tile.comp). Longer segments go to classes TILE_BITS + 32 - ceil(log2(n)), so
// that the longest are listed first, and one dispatch (SEG_LARGE's) sorts them all (radix.comp):
// its workgroups start in list order, so the longest segments do not finish last.
#define SEG_MAX_CLASSES 32
#define SEG_LARGE 31
#define SEG_PLAN_COUNTS 0
#define SEG_PLAN_CURSORS 32
#define SEG_PLAN_ARGS 64     // 3 words per class
#define SEG_PLAN_SEGMENTS 192 // the segment count, when the host knows it (bin.comp's count binding)
#define SEG_PLAN_LARGE_FIRST 193 // the list's first segment longer than a tile
#define SEG_PLAN_LARGE_COUNT 194 // the segments longer than a tile
#define SEG_PLAN_LIST 256

#endif
