#version 450
// hlo_math_f32.glsl: two f32 words (x, y) in, one f32 out; the function is kOp.
#extension GL_GOOGLE_include_directive : require
#include "kernel_io.glsl"
#include "hlo_math_f32.glsl"

float run(float x, float y) {
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
    out_words[i] = floatBitsToUint(run(uintBitsToFloat(in_words[2u * i]), uintBitsToFloat(in_words[2u * i + 1u])));
  }
}
