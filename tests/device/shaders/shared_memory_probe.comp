#version 450
// Test kernel: uses `kWords` 32-bit words of shared memory (a specialization constant), so tests
// can check pipeline creation against maxComputeSharedMemorySize.
layout(local_size_x = 64) in;

layout(constant_id = 0) const uint kWords = 1024u;
shared uint scratch[kWords];

layout(std430, set = 0, binding = 0) buffer Out { uint data[]; } out_buf;

void main() {
  for (uint i = gl_LocalInvocationIndex; i < kWords; i += 64u) scratch[i] = i;
  barrier();
  if (gl_LocalInvocationIndex == 0u) out_buf.data[0] = scratch[kWords - 1u];
}
