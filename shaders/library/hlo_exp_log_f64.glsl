// f64 exponentials and logarithms (part of hlo_math_f64.glsl): the double overloads of
// hlo_exponential, hlo_exponential_minus_one, hlo_log, hlo_log_plus_one, hlo_logistic, hlo_tanh.
// Same algorithms as hlo_exp_log_f32.glsl with double-double low words (ln2 split so k * part is
// exact for |k| < 2^11, degree-11 and degree-6 kernels from tools/fit_coefficients.py).
//
// Not written once with hlo_exp_log_f32.glsl: the steps differ, not only the types (a degree-11
// exp polynomial where f32 has degree 5, a double-double result of the reduction where f32 rounds
// 1 + r once, ln2 split for |k| < 2^11, the range limits of the wider format).
//
// Needs: the Float64 capability (shaderFloat64).
#ifndef HLO_EXP_LOG_F64_GLSL
#define HLO_EXP_LOG_F64_GLSL

#include "hlo_basic_f64.glsl"

const double HLO_LOG2E_D = 1.4426950408889634LF;
const double HLO_LN2_CW_HI_D = 0.6931471805598903LF;  // 42 bits
const double HLO_LN2_CW_LO_D = 5.497923018708371e-14LF;

// e^r - 1 = r + r^2 P(r), |r| <= ln2/2 (EXP_P).
double hlo_exp_poly_d_(double r) {
  return 0.5LF + r * (0.16666666666666666LF + r * (0.04166666666666668LF +
         r * (0.008333333333333333LF + r * (0.0013888888888879082LF +
         r * (0.00019841269841263304LF + r * (2.480158733642132e-05LF +
         r * (2.755731924720479e-06LF + r * (2.755726330147475e-07LF +
         r * (2.5052071109214447e-08LF + r * (2.0918129454967065e-09LF +
         r * 1.6086622436215554e-10LF))))))))));
}

double hlo_scale_(double y, int k) {
  return (k > -1022 && k < 1024) ? y * hlo_exp2i_f64_(k) : hlo_ldexp_(y, k);
}

// e^(xh + xl) = (hi + lo) * 2^k before scaling, |xh| <= 746.
dvec2 hlo_exp_reduced_(double xh, double xl, out int k_out) {
  double k = hlo_floor(xh * HLO_LOG2E_D + 0.5LF);
  precise double rh = xh - k * HLO_LN2_CW_HI_D;  // exact
  precise double rl = xl - k * HLO_LN2_CW_LO_D;
  dvec2 r = hlo_two_sum_(rh, rl);
  double p = hlo_exp_poly_d_(r.x);
  precise double tail = r.y * (1.0LF + r.x) + r.x * r.x * p;
  dvec2 s = hlo_fast_two_sum_(r.x, tail);
  dvec2 y = hlo_fast_two_sum_(1.0LF, s.x);
  k_out = int(k);
  return dvec2(y.x, y.y + s.y);
}

double hlo_exponential(double x) {
  if (hlo_is_nan_(x)) return hlo_quiet_(x);
  if (x > 710.0LF) return hlo_inf_f64_(0u);
  if (x < -746.0LF) return 0.0LF;
  int k;
  dvec2 y = hlo_exp_reduced_(x, 0.0LF, k);
  return hlo_scale_(y.x + y.y, k);
}

double hlo_exp_dd_(double xh, double xl) {
  if (xh > 710.0LF) return hlo_inf_f64_(0u);
  if (xh < -746.0LF) return 0.0LF;
  int k;
  dvec2 y = hlo_exp_reduced_(xh, xl, k);
  return hlo_scale_(y.x + y.y, k);
}

// e^x for -746 <= x <= 710 as a double-double.
dvec2 hlo_exp_dd_parts_(double x) {
  int k;
  dvec2 y = hlo_exp_reduced_(x, 0.0LF, k);
  return dvec2(hlo_scale_(y.x, k), hlo_ldexp_(y.y, k));
}

// e^x - 1 as a double-double, for -38 < x < 710 and |x| >= 2^-54.
dvec2 hlo_expm1_dd_(double x) {
  double k = hlo_floor(x * HLO_LOG2E_D + 0.5LF);
  if (k == 0.0LF) return hlo_fast_two_sum_(x, x * x * hlo_exp_poly_d_(x));
  precise double rh = x - k * HLO_LN2_CW_HI_D;
  precise double rl = -k * HLO_LN2_CW_LO_D;
  dvec2 r = hlo_two_sum_(rh, rl);
  double p = hlo_exp_poly_d_(r.x);
  precise double tail = r.y * (1.0LF + r.x) + r.x * r.x * p;
  dvec2 s = hlo_fast_two_sum_(r.x, tail);
  int ki = int(k);
  if (ki > 53) {
    precise double t = s.x + (s.y - hlo_exp2i_f64_(max(-ki, -1022)));
    return dvec2(hlo_ldexp_(1.0LF + t, ki), 0.0LF);
  }
  if (ki < -53) return dvec2(-1.0LF + hlo_exp2i_f64_(ki) * (1.0LF + s.x), 0.0LF);
  double two_k = hlo_exp2i_f64_(ki);
  dvec2 a = hlo_two_sum_(two_k - 1.0LF, two_k * s.x);
  precise double lo = a.y + two_k * s.y;
  return hlo_fast_two_sum_(a.x, lo);
}

double hlo_exponential_minus_one(double x) {
  if (hlo_is_nan_(x)) return hlo_quiet_(x);
  if (x > 710.0LF) return hlo_inf_f64_(0u);
  if (x < -38.0LF) return -1.0LF;
  if (abs(x) < 5.551115123125783e-17LF) return x;  // 2^-54
  return hlo_expm1_dd_(x).x;
}

dvec2 hlo_log_dd_(double x, double extra) {
  uvec2 X;
  int k;
  hlo_split_f64_(unpackDouble2x32(x), X, k);
  // m in [sqrt(1/2), sqrt(2)): significands above 0x1.6a09e667f3bcd are halved.
  uint exp_field = 0x3FF00000u;
  if (hlo_u64_lt(uvec2(0x667F3BCCu, 0x16A09Eu), X)) {
    exp_field = 0x3FE00000u;
    k += 1;
  }
  precise double f = packDouble2x32(uvec2(X.x, (X.y & 0xFFFFFu) | exp_field)) - 1.0LF;
  double s = f / (2.0LF + f);
  double z = s * s;
  double R = z * (0.666666666666667LF + z * (0.39999999999899505LF + z * (0.28571428625975487LF +
             z * (0.2222221113479508LF + z * (0.18182889125261723LF + z * (0.15331721600556042LF +
             z * 0.14616449685043406LF))))));
  precise double hfsq = 0.5LF * f * f;
  double dk = double(k);
  precise double lo = (hfsq - (s * (hfsq + R) + (dk * HLO_LN2_CW_LO_D + extra))) - f;
  return hlo_two_sum_(dk * HLO_LN2_CW_HI_D, -lo);
}

double hlo_log(double x) {
  uvec2 w = unpackDouble2x32(x);
  if (hlo_is_nan_(x)) return hlo_quiet_(x);
  if (((w.y & 0x7FFFFFFFu) | w.x) == 0u) return hlo_inf_f64_(0x80000000u);
  if ((w.y >> 31) != 0u) return hlo_nan_f64_();
  if (hlo_is_inf_(x)) return x;
  return hlo_log_dd_(x, 0.0LF).x;
}

double hlo_log_plus_one(double x) {
  if (hlo_is_nan_(x)) return hlo_quiet_(x);
  if (x == -1.0LF) return hlo_inf_f64_(0x80000000u);
  if (x < -1.0LF) return hlo_nan_f64_();
  if (hlo_is_inf_(x)) return x;
  if (abs(x) < 1.1102230246251565e-16LF) return x;  // 2^-53
  dvec2 u = hlo_two_sum_(1.0LF, x);
  return hlo_log_dd_(u.x, u.y / u.x).x;
}

double hlo_dd_divide_(dvec2 a, dvec2 b) {
  double q = hlo_divide(a.x, b.x);
  dvec2 p = hlo_two_prod_(q, b.x);
  precise double rho = ((a.x - p.x) - p.y) + a.y - q * b.y;
  precise double r = q + rho / b.x;
  return r;
}

double hlo_logistic(double x) {
  if (hlo_is_nan_(x)) return hlo_quiet_(x);
  dvec2 e = abs(x) > 746.0LF ? dvec2(0.0LF) : hlo_exp_dd_parts_(-abs(x));
  dvec2 d = hlo_two_sum_(1.0LF, e.x);
  d = hlo_fast_two_sum_(d.x, d.y + e.y);
  return hlo_dd_divide_(x >= 0.0LF ? dvec2(1.0LF, 0.0LF) : e, d);
}

double hlo_tanh(double x) {
  if (hlo_is_nan_(x)) return hlo_quiet_(x);
  double a = abs(x);
  if (a < 7.450580596923828e-09LF) return x;  // 2^-27
  if (a > 22.0LF) return hlo_copysign_(1.0LF, x);
  dvec2 t = hlo_expm1_dd_(2.0LF * a);
  dvec2 d = hlo_two_sum_(t.x, 2.0LF);
  d = hlo_fast_two_sum_(d.x, d.y + t.y);
  return hlo_copysign_(hlo_dd_divide_(t, d), x);
}

#endif  // HLO_EXP_LOG_F64_GLSL
