#version 450
// hlo_math_f64.glsl: two f64 (four words) in, one f64 out; the function is kOp.
#extension GL_GOOGLE_include_directive : require
#include "kernel_io.glsl"
#include "hlo_math_f64.glsl"

double run(double x, double y) {
  switch (kOp) {
    case 0u: return hlo_exponential(x);
    case 1u: return hlo_exponential_minus_one(x);
    case 2u: return hlo_log(x);
    case 3u: return hlo_log_plus_one(x);
    case 4u: return hlo_logistic(x);
    case 5u: return hlo_tanh(x);
    case 6u: return hlo_sine(x);
    case 7u: return hlo_cosine(x);
    case 8u: return hlo_tan(x);
    case 9u: return hlo_atan2(x, y);
    case 10u: return hlo_power(x, y);
    default: return hlo_cbrt(x);
  }
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
