#version 450
// Test kernel: one buffer declared twice at binding 0 (a uint[] and a uvec4[] view, as the
// library kernels read operands), so reflection must count it as one binding.
layout(local_size_x = 4) in;

layout(std430, set = 0, binding = 0) readonly buffer Words { uint words[]; };
layout(std430, set = 0, binding = 0) readonly buffer Vectors { uvec4 vectors[]; };
layout(std430, set = 0, binding = 1) writeonly buffer Out { uint result[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  result[i] = words[i] + vectors[i].y;
}
