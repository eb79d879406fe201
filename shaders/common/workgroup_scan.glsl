// Workgroup-wide exclusive prefix sum built from subgroup scans: any subgroup size, any number
// of subgroups up to WORKGROUP_SCAN_MAX_SUBGROUPS (a constant the including shader defines).
//
// Needs GL_KHR_shader_subgroup_arithmetic and GL_KHR_shader_subgroup_basic enabled before the
// include. Every invocation of the workgroup must call it, in uniform control flow.
#ifndef VKC_WORKGROUP_SCAN_GLSL
#define VKC_WORKGROUP_SCAN_GLSL

shared uint wg_scan_totals[WORKGROUP_SCAN_MAX_SUBGROUPS];

// Returns the sum of `value` over the invocations before this one (in subgroup order, then lane
// order); `total` receives the sum over the whole workgroup.
uint workgroup_exclusive_add(uint value, out uint total) {
  const uint inclusive = subgroupInclusiveAdd(value);
  const uint subgroup_total = subgroupAdd(value);
  if (subgroupElect()) wg_scan_totals[gl_SubgroupID] = subgroup_total;
  // Orders every subgroup's total store before any invocation reads the totals below.
  barrier();
  uint before = 0;
  total = 0;
  for (uint s = 0; s < gl_NumSubgroups; ++s) {
    const uint t = wg_scan_totals[s];
    if (s < gl_SubgroupID) before += t;
    total += t;
  }
  // Orders every read of the totals before a later call of this function overwrites them.
  barrier();
  return before + inclusive - value;
}

#endif
