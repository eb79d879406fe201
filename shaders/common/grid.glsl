// Workgroup indexing for grids that the host split into 2-D when the count passed the x limit.
#ifndef VKC_GRID_GLSL
#define VKC_GRID_GLSL

// The workgroup's position in the linear order in which the host counted the workgroups.
uint linear_workgroup_id() { return gl_WorkGroupID.x + gl_WorkGroupID.y * gl_NumWorkGroups.x; }

#endif
