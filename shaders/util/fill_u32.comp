#version 450
// Fills `count` 32-bit words with `value`: the smallest useful kernel, used to initialize
// buffers and to measure per-dispatch overhead.
#extension GL_GOOGLE_include_directive : require
#include "vkhlo_dispatch.glsl"

layout(local_size_x_id = 0) in;  // default 64

layout(std430, set = 0, binding = 0) writeonly buffer Out { uint data[]; } out_buf;

layout(push_constant) uniform Push {
  VKHLO_WORKGROUP_BASE_MEMBER
  uvec4 groups;  // xyz: the whole grid in workgroups
  uint count;
  uint value;
} pc;

void main() {
  uint i = vkhlo_global_linear_id(pc, pc.groups);
  if (i < pc.count) out_buf.data[i] = pc.value;
}
