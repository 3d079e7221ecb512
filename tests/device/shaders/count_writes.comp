#version 450
// Test kernel: every invocation of a (possibly split) grid adds 1 to its own counter, so a
// correct dispatch leaves every counter at exactly 1.
#extension GL_GOOGLE_include_directive : require
#include "vkhlo_dispatch.glsl"

layout(local_size_x = 64) in;

layout(std430, set = 0, binding = 0) buffer Counters { uint counter[]; } counters;

layout(push_constant) uniform Push {
  VKHLO_WORKGROUP_BASE_MEMBER
  uvec4 groups;
  uint count;
} pc;

void main() {
  uint i = vkhlo_global_linear_id(pc, pc.groups);
  if (i < pc.count) atomicAdd(counters.counter[i], 1u);
}
