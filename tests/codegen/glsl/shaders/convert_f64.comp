#version 450
// hlo_convert_f64.glsl: four words (a, b, c, d) in, two words (an f64, or an f32 and 0) out.
#extension GL_GOOGLE_include_directive : require
#include "kernel_io.glsl"
#include "hlo_convert_f64.glsl"

uvec2 run(uint a, uint b, uint c, uint d) {
#if KOP_BASE == 0
  return unpackDouble2x32(hlo_f64_from_u64_(uvec2(a, b)));
#elif KOP_BASE == 1
  return unpackDouble2x32(hlo_f64_from_i64_(uvec2(a, b)));
#elif KOP_BASE == 2
  return uvec2(floatBitsToUint(hlo_f32_from_f64(packDouble2x32(uvec2(a, b)))), 0u);
#else
  return unpackDouble2x32(hlo_reduce_precision(packDouble2x32(uvec2(a, b)), int(c), int(d), 11, 52, -1022));
#endif
}

void main() {
  FOR_EACH_ELEMENT(i) {
    uvec2 r = run(in_words[4u * i], in_words[4u * i + 1u], in_words[4u * i + 2u], in_words[4u * i + 3u]);
    out_words[2u * i] = r.x;
    out_words[2u * i + 1u] = r.y;
  }
}
