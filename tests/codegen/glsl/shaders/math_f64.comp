#version 450
// hlo_math_f64.glsl: two f64 (four words) in, one f64 out; the function is kOp.
#extension GL_GOOGLE_include_directive : require
#include "kernel_io.glsl"
#include "hlo_math_f64.glsl"

double run(double x, double y) {
#if KOP_BASE == 0
  return hlo_exponential(x);
#elif KOP_BASE == 1
  return hlo_exponential_minus_one(x);
#elif KOP_BASE == 2
  return hlo_log(x);
#elif KOP_BASE == 3
  return hlo_log_plus_one(x);
#elif KOP_BASE == 4
  return hlo_logistic(x);
#elif KOP_BASE == 5
  return hlo_tanh(x);
#elif KOP_BASE == 6
  return hlo_sine(x);
#elif KOP_BASE == 7
  return hlo_cosine(x);
#elif KOP_BASE == 8
  return hlo_tan(x);
#elif KOP_BASE == 9
  return hlo_atan2(x, y);
#elif KOP_BASE == 10
  return hlo_power(x, y);
#else
  return hlo_cbrt(x);
#endif
}

void main() {
  FOR_EACH_ELEMENT(i) {
    double x = packDouble2x32(uvec2(in_words[4u * i], in_words[4u * i + 1u]));
    double y = packDouble2x32(uvec2(in_words[4u * i + 2u], in_words[4u * i + 3u]));
    uvec2 r = unpackDouble2x32(run(x, y));
    out_words[2u * i] = r.x;
    out_words[2u * i + 1u] = r.y;
  }
}
