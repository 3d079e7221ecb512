#version 450
// hlo_convert_f32.glsl: four words (a, b, c, d) in, one word out.
#extension GL_GOOGLE_include_directive : require
#include "kernel_io.glsl"
#include "hlo_convert_f32.glsl"

float run(uint a, uint b, uint c, uint d) {
#if KOP_BASE == 0
  return hlo_f32_from_u32(a);
#elif KOP_BASE == 1
  return hlo_f32_from_i32(int(a));
#elif KOP_BASE == 2
  return hlo_f32_from_u64_(uvec2(a, b));
#elif KOP_BASE == 3
  return hlo_f32_from_i64_(uvec2(a, b));
#elif KOP_BASE == 4
  return hlo_odd_from_u32(a);
#elif KOP_BASE == 5
  return hlo_odd_from_u64_(uvec2(a, b));
#else
  return hlo_reduce_precision(uintBitsToFloat(a), int(c), int(d), 8, 23, -126);
#endif
}

void main() {
  FOR_EACH_ELEMENT(i) {
    out_words[i] = floatBitsToUint(run(in_words[4u * i], in_words[4u * i + 1u], in_words[4u * i + 2u], in_words[4u * i + 3u]));
  }
}
