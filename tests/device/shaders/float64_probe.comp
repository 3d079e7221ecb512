#version 450
// Test kernel: doubles each f64 element. It declares the Float64 capability, so pipeline
// creation must refuse it on a device (or profile) without shaderFloat64.
layout(local_size_x = 64) in;

layout(std430, set = 0, binding = 0) buffer Data { double data[]; } buf;

void main() {
  buf.data[gl_GlobalInvocationID.x] *= 2.0LF;
}
