#version 450
// hlo_basic_f32.glsl: two f32 words (x, y) in, one word out. Ops 20..26 and 30..36 run the
// division and square-root correction steps on estimates perturbed by op - 23 (op - 33) ULP.
#extension GL_GOOGLE_include_directive : require
#include "kernel_io.glsl"
#include "hlo_basic_f32.glsl"

float perturb(float v, int k) { return uintBitsToFloat(uint(int(floatBitsToUint(v)) + k)); }

// hlo_divide for finite non-zero operands, with the estimate perturbed.
float divide_perturbed(float x, float y, int k) {
  uint bx = floatBitsToUint(x), by = floatBitsToUint(y);
  uint X, Y;
  int ex, ey;
  hlo_split_f32_(bx & 0x7FFFFFFFu, X, ex);
  hlo_split_f32_(by & 0x7FFFFFFFu, Y, ey);
  int e = ex - ey;
  if (X < Y) {
    X <<= 1;
    e -= 1;
  }
  return hlo_divide_refine_((bx ^ by) & 0x80000000u, e, X, Y, perturb(float(X) / float(Y), k));
}

// hlo_sqrt for finite positive operands, with the estimate perturbed.
float sqrt_perturbed(float x, int k) {
  uint X;
  int ex;
  hlo_split_f32_(floatBitsToUint(x), X, ex);
  int s = ((ex - 23 - 25) & 1) == 0 ? 25 : 26;
  float qs = sqrt(float(X) * hlo_exp2i_(s - 48));
  return hlo_sqrt_refine_(X << s, (ex - 23 - s) / 2 + 24, perturb(qs, k));
}

float run(float x, float y) {
  if (kOp >= 30u) return sqrt_perturbed(x, int(kOp) - 33);
  if (kOp >= 20u) return divide_perturbed(x, y, int(kOp) - 23);
#if KOP_BASE == 0
  return hlo_divide(x, y);
#elif KOP_BASE == 1
  return hlo_sqrt(x);
#elif KOP_BASE == 2
  return hlo_rsqrt(x);
#elif KOP_BASE == 3
  return hlo_remainder(x, y);
#elif KOP_BASE == 4
  return hlo_round_nearest_afz(x);
#elif KOP_BASE == 5
  return hlo_round_nearest_even(x);
#elif KOP_BASE == 6
  return hlo_is_finite(x) ? 1.0 : 0.0;
#elif KOP_BASE == 7
  return hlo_trunc(x);
#elif KOP_BASE == 8
  return hlo_floor(x);
#else
  return hlo_ceil(x);
#endif
}

void main() {
  FOR_EACH_ELEMENT(i) {
    out_words[i] = floatBitsToUint(run(uintBitsToFloat(in_words[2u * i]), uintBitsToFloat(in_words[2u * i + 1u])));
  }
}
