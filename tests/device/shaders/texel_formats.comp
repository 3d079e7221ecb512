#version 450
// Test kernel for reflection: the integer texel buffer formats and a storage buffer among them.
layout(local_size_x = 1) in;

layout(set = 0, binding = 0, rgba32ui) readonly uniform uimageBuffer quads;
layout(set = 0, binding = 1) writeonly buffer Out { uvec4 result[]; };
layout(set = 0, binding = 2, r32ui) readonly uniform uimageBuffer scalars;

void main() {
  result[0] = imageLoad(quads, 0) + imageLoad(scalars, 0);
}
