// The specialization-constant ids of the n-body kernels (nbody/forces.comp, kick_drift.comp,
// splat.comp, tone_map.comp), shared by the host code (src/nbody/simulation.cpp, render.cpp) and
// the kernels. Only macros, so that C++ may include it at any scope.
#ifndef VKC_NBODY_LAYOUT_H
#define VKC_NBODY_LAYOUT_H

// Id 0 is each kernel's workgroup size (local_size_x_id): kick_drift's, splat's and tone_map's
// only constant.
#define NBODY_SC_WORKGROUP 0
#define NBODY_STREAMING_CONSTANTS 1  // kick_drift, splat, tone_map

// forces.comp
#define NBODY_FORCES_BODIES 1  // bodies accumulated by each invocation
#define NBODY_FORCES_TILE 2    // bodies staged per tile
#define NBODY_FORCES_CONSTANTS 3

#endif
