#version 450
// Real <-> complex element conversion for the FFT's length-1 edge cases (device/fft): with
// `to_complex` set, each real element becomes a complex one with imaginary part +0; otherwise
// each complex element gives its real part. Elements move as 32-bit words (`words` per real:
// 1 for f32, 2 for f64), bit for bit, so f64 needs no shaderFloat64.
#extension GL_GOOGLE_include_directive : require
#include "vkhlo_dispatch.glsl"

layout(local_size_x_id = 0) in;  // set by device/fft (64)

layout(std430, set = 0, binding = 0) readonly buffer In { uint data[]; } src;
layout(std430, set = 0, binding = 1) writeonly buffer Out { uint data[]; } dst;

layout(push_constant) uniform Push {
  VKHLO_WORKGROUP_BASE_MEMBER
  uvec4 groups;  // xyz: the whole grid in workgroups
  uint count;    // elements
  uint words;    // 32-bit words per real
  uint to_complex;
} pc;

void main() {
  uint i = vkhlo_global_linear_id(pc, pc.groups);
  if (i >= pc.count) return;
  for (uint w = 0; w < pc.words; ++w) {
    if (pc.to_complex != 0) {
      dst.data[2 * i * pc.words + w] = src.data[i * pc.words + w];
      dst.data[(2 * i + 1) * pc.words + w] = 0;
    } else {
      dst.data[i * pc.words + w] = src.data[2 * i * pc.words + w];
    }
  }
}
