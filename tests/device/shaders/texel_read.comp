#version 450
// Test kernel: copies what it reads through an rgba32f and an r32f storage texel buffer (the way
// the matmul kernels read packed operands) into a storage buffer, so the test can check the
// views the device layer makes: their offsets, their ranges, and zeros past their ends.
layout(local_size_x = 16) in;

layout(set = 0, binding = 0, rgba32f) readonly uniform imageBuffer quads;
layout(set = 0, binding = 1, r32f) readonly uniform imageBuffer scalars;
layout(std430, set = 0, binding = 2) writeonly buffer Out { vec4 result[]; };
layout(push_constant) uniform Push { uint count; } pc;

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= pc.count) return;
  result[2 * i] = imageLoad(quads, int(i));
  result[2 * i + 1] = imageLoad(scalars, int(i));  // r32f reads as (x, 0, 0, 1)
}
