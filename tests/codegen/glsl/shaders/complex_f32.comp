#version 450
// hlo_complex_f32.glsl: two complex<f32> (four words: a.re a.im b.re b.im) in, one out.
#extension GL_GOOGLE_include_directive : require
#include "kernel_io.glsl"
#include "hlo_complex_f32.glsl"

vec2 run(vec2 a, vec2 b) {
#if KOP_BASE == 0
  return hlo_complex_multiply(a, b);
#elif KOP_BASE == 1
  return hlo_complex_divide(a, b);
#elif KOP_BASE == 2
  return vec2(hlo_complex_abs(a), 0.0);
#elif KOP_BASE == 3
  return hlo_complex_sign(a);
#elif KOP_BASE == 4
  return hlo_complex_exponential(a);
#elif KOP_BASE == 5
  return hlo_complex_exponential_minus_one(a);
#elif KOP_BASE == 6
  return hlo_complex_log(a);
#elif KOP_BASE == 7
  return hlo_complex_log_plus_one(a);
#elif KOP_BASE == 8
  return hlo_complex_sqrt(a);
#elif KOP_BASE == 9
  return hlo_complex_rsqrt(a);
#elif KOP_BASE == 10
  return hlo_complex_cbrt(a);
#elif KOP_BASE == 11
  return hlo_complex_sine(a);
#elif KOP_BASE == 12
  return hlo_complex_cosine(a);
#elif KOP_BASE == 13
  return hlo_complex_tan(a);
#elif KOP_BASE == 14
  return hlo_complex_tanh(a);
#elif KOP_BASE == 15
  return hlo_complex_power(a, b);
#else
  return hlo_complex_logistic(a);
#endif
}

void main() {
  FOR_EACH_ELEMENT(i) {
    vec2 a = uintBitsToFloat(uvec2(in_words[4u * i], in_words[4u * i + 1u]));
    vec2 b = uintBitsToFloat(uvec2(in_words[4u * i + 2u], in_words[4u * i + 3u]));
    uvec2 r = floatBitsToUint(run(a, b));
    out_words[2u * i] = r.x;
    out_words[2u * i + 1u] = r.y;
  }
}
