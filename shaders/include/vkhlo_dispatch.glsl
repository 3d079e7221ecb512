// Workgroup ids for dispatches the device layer may split.
//
// A grid larger than maxComputeWorkGroupCount is recorded as several dispatches; each gets the
// base of its part of the grid in push constants. A shader opting in puts
// VKHLO_WORKGROUP_BASE_MEMBER first in its push-constant block (so the pipeline's
// workgroup_base_offset is 0) and reads its position with vkhlo_workgroup_id(pc).
#ifndef VKHLO_DISPATCH_GLSL
#define VKHLO_DISPATCH_GLSL

#define VKHLO_WORKGROUP_BASE_MEMBER uvec4 vkhlo_workgroup_base;

// The workgroup's id in the whole grid (not just in its part).
#define vkhlo_workgroup_id(pc) (gl_WorkGroupID + (pc).vkhlo_workgroup_base.xyz)

// The linear id of the invocation in a grid of `groups` workgroups (x fastest).
#define vkhlo_global_linear_id(pc, groups)                                               \
  ((vkhlo_workgroup_id(pc).x + (groups).x * (vkhlo_workgroup_id(pc).y +                  \
                                             (groups).y * vkhlo_workgroup_id(pc).z)) *    \
       (gl_WorkGroupSize.x * gl_WorkGroupSize.y * gl_WorkGroupSize.z) +                 \
   gl_LocalInvocationIndex)

#endif  // VKHLO_DISPATCH_GLSL
