#version 450
// hlo_basic_f64.glsl: two f64 (four words) in, one f64 out; ops as basic_f32.comp.
#extension GL_GOOGLE_include_directive : require
#include "kernel_io.glsl"
#include "hlo_basic_f64.glsl"

double perturb(double v, int k) {
  uvec2 w = unpackDouble2x32(v);
  return packDouble2x32(uvec2(uint(int(w.x) + k), w.y));  // estimates never sit at a word boundary here
}

double divide_perturbed(double x, double y, int k) {
  uvec2 wx = unpackDouble2x32(x), wy = unpackDouble2x32(y);
  uvec2 X, Y;
  int ex, ey;
  hlo_split_f64_(wx, X, ex);
  hlo_split_f64_(wy, Y, ey);
  int e = ex - ey;
  if (hlo_u64_lt(X, Y)) {
    X = hlo_u64_shl(X, 1);
    e -= 1;
  }
  double qs = hlo_u64_to_double_(X) / hlo_u64_to_double_(Y);
  return hlo_divide_refine_((wx.y ^ wy.y) & 0x80000000u, e, X, Y, perturb(qs, k));
}

double sqrt_perturbed(double x, int k) {
  uvec2 X;
  int ex;
  hlo_split_f64_(unpackDouble2x32(x), X, ex);
  int s = ((ex - 52 - 54) & 1) == 0 ? 54 : 55;
  double qs = sqrt(hlo_u64_to_double_(X) * hlo_exp2i_f64_(s - 106));
  return hlo_sqrt_refine_(X, s, (ex - 52 - s) / 2 + 53, perturb(qs, k));
}

double run(double x, double y) {
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
  return hlo_is_finite(x) ? 1.0LF : 0.0LF;
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
    double x = packDouble2x32(uvec2(in_words[4u * i], in_words[4u * i + 1u]));
    double y = packDouble2x32(uvec2(in_words[4u * i + 2u], in_words[4u * i + 3u]));
    uvec2 r = unpackDouble2x32(run(x, y));
    out_words[2u * i] = r.x;
    out_words[2u * i + 1u] = r.y;
  }
}
