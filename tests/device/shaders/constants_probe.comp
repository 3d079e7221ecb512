#version 450
// Test kernel: writes back its specialization and push constants, so a test can check both
// reach the shader.
layout(local_size_x_id = 2) in;

layout(constant_id = 0) const uint kSpecUint = 1u;
layout(constant_id = 1) const float kSpecFloat = 0.5;
layout(constant_id = 3) const int kSpecInt = -1;

layout(std430, set = 0, binding = 0) writeonly buffer Out { uint data[]; } out_buf;

layout(push_constant) uniform Push {
  uint a;
  float b;
  int c;
} pc;

void main() {
  if (gl_GlobalInvocationID.x != 0) return;
  out_buf.data[0] = kSpecUint;
  out_buf.data[1] = floatBitsToUint(kSpecFloat);
  out_buf.data[2] = uint(kSpecInt);
  out_buf.data[3] = pc.a;
  out_buf.data[4] = floatBitsToUint(pc.b);
  out_buf.data[5] = uint(pc.c);
  out_buf.data[6] = gl_WorkGroupSize.x;
}
