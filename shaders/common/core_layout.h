// The specialization-constant ids of the runtime's own kernels (core/copy.comp, core/affine.comp),
// shared by the host code (src/core/kernels.cpp) and the kernels. Only macros, so that C++ may
// include it at any scope.
#ifndef VKC_CORE_LAYOUT_H
#define VKC_CORE_LAYOUT_H

// Id 0 is each kernel's workgroup size (local_size_x_id).
#define CORE_SC_WORKGROUP 0

// copy.comp
#define COPY_ITEMS 1  // 16-byte vectors per invocation
#define COPY_CONSTANTS 2

// affine.comp
#define AFFINE_ITEMS 1  // elements per invocation
#define AFFINE_BIAS 2   // added on top of `add`, to test specialization
#define AFFINE_CONSTANTS 3

#endif
