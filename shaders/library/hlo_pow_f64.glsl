// f64 power and cube root (part of hlo_math_f64.glsl): the double overloads of hlo_power and
// hlo_cbrt, as hlo_pow_f32.glsl with double-double words (log|x| to ~2^-100 relative: 2s and
// 2/3 s^3 in double-double, the s^5 tail in double; ln2 in three words).
//
// Not written once with hlo_pow_f32.glsl: the wider format needs more of log|x| in double-double
// and ln2 in three words, so the steps and their error bounds differ from the f32 file's.
//
// Needs: the Float64 capability (shaderFloat64).
#ifndef HLO_POW_F64_GLSL
#define HLO_POW_F64_GLSL

#include "hlo_basic_f64.glsl"
#include "hlo_exp_log_f64.glsl"
#include "hlo_pow_f32.glsl"  // hlo_cbrt(float) seeds the double cube root

const double HLO_TWO_THIRDS_HI_D = 0.6666666666666666LF;
const double HLO_TWO_THIRDS_LO_D = 3.700743415417188e-17LF;
const double HLO_LN2_HI_D = 0.6931471805599453LF;  // ln2 = HI + LO + LO2
const double HLO_LN2_LO_D = 2.3190468138462996e-17LF;
const double HLO_LN2_LO2_D = 5.707708438416212e-34LF;

dvec2 hlo_log_accurate_dd_(double a) {
  uvec2 X;
  int k;
  hlo_split_f64_(unpackDouble2x32(a), X, k);
  uint exp_field = 0x3FF00000u;
  if (hlo_u64_lt(uvec2(0x667F3BCCu, 0x16A09Eu), X)) {
    exp_field = 0x3FE00000u;
    k += 1;
  }
  precise double f = packDouble2x32(uvec2(X.x, (X.y & 0xFFFFFu) | exp_field)) - 1.0LF;
  dvec2 d = hlo_two_sum_(2.0LF, f);
  double sh = hlo_divide(f, d.x);
  dvec2 p = hlo_two_prod_(sh, d.x);
  precise double sl = (((f - p.x) - p.y) - sh * d.y) / d.x;
  dvec2 s = dvec2(sh, sl);
  dvec2 z = hlo_dd_mul_(s, s);
  dvec2 s3 = hlo_dd_mul_(z, s);
  dvec2 term3 = hlo_dd_mul_(s3, dvec2(HLO_TWO_THIRDS_HI_D, HLO_TWO_THIRDS_LO_D));
  double T = 0.4LF + z.x * (0.28571428571429364LF + z.x * (0.22222222221656232LF + z.x * (0.18181818335314404LF +
             z.x * (0.15384594970895457LF + z.x * (0.13334804238225345LF + z.x * (0.11706248540922386LF +
             z.x * 0.11723051028097753LF))))));
  dvec2 l = hlo_dd_add_(2.0LF * s, term3);
  l = hlo_dd_add_(l, dvec2(s3.x * z.x * T, 0.0LF));
  double dk = double(k);
  dvec2 kl = hlo_dd_add_(hlo_two_prod_(dk, HLO_LN2_HI_D), hlo_two_prod_(dk, HLO_LN2_LO_D));
  kl = hlo_dd_add_(kl, dvec2(dk * HLO_LN2_LO2_D, 0.0LF));
  return hlo_dd_add_(kl, l);
}

bool hlo_is_integer_(double y) { return hlo_floor(y) == y; }
bool hlo_is_odd_integer_(double y) {
  return abs(y) < 9007199254740992.0LF && hlo_floor(y) == y && hlo_floor(y * 0.5LF) != y * 0.5LF;
}

double hlo_power(double x, double y) {
  uvec2 wx = unpackDouble2x32(x), wy = unpackDouble2x32(y);
  if (((wy.y & 0x7FFFFFFFu) | wy.x) == 0u) return 1.0LF;
  if (wx == uvec2(0u, 0x3FF00000u)) return 1.0LF;
  if (hlo_is_nan_(x)) return hlo_quiet_(x);
  if (hlo_is_nan_(y)) return hlo_quiet_(y);
  double ax = hlo_abs_bits_(x);
  bool x_negative = (wx.y >> 31) != 0u;
  if (hlo_is_inf_(y)) {
    if (ax == 1.0LF) return 1.0LF;
    return ((ax > 1.0LF) == (y > 0.0LF)) ? hlo_inf_f64_(0u) : 0.0LF;
  }
  bool odd = hlo_is_odd_integer_(y);
  uint sign = (x_negative && odd) ? 0x80000000u : 0u;
  if (ax == 0.0LF || hlo_is_inf_(x)) {
    bool big = (((wx.y & 0x7FFFFFFFu) | wx.x) == 0u) == (y < 0.0LF);
    return packDouble2x32(uvec2(0u, sign | (big ? 0x7FF00000u : 0u)));
  }
  if (x_negative && !hlo_is_integer_(y)) return hlo_nan_f64_();
  // |y| >= 2^100 (an even integer): 1, overflow or underflow (|log x| >= 2^-53).
  if (abs(y) >= 1.2676506002282294e30LF) {
    return ax == 1.0LF ? 1.0LF : ((ax > 1.0LF) == (y > 0.0LF) ? hlo_inf_f64_(0u) : 0.0LF);
  }
  dvec2 l = hlo_log_accurate_dd_(ax);
  dvec2 z = hlo_dd_mul_d_(l, y);
  double r = hlo_exp_dd_(z.x, z.y);
  uvec2 rw = unpackDouble2x32(r);
  return packDouble2x32(uvec2(rw.x, rw.y | sign));
}

double hlo_cbrt(double x) {
  uvec2 w = unpackDouble2x32(x);
  if (!hlo_is_finite(x) || ((w.y & 0x7FFFFFFFu) | w.x) == 0u) return hlo_is_nan_(x) ? hlo_quiet_(x) : x;
  uvec2 X;
  int ex;
  hlo_split_f64_(w, X, ex);
  int q = (ex >= 0 ? ex : ex - 2) / 3;
  int rem = ex - 3 * q;
  double m = packDouble2x32(uvec2(X.x, (X.y & 0xFFFFFu) | 0x3FF00000u)) * double(1 << rem);  // [1, 8)
  double t = double(hlo_cbrt(float(m)));           // ~2^-24
  t = t - (t * t * t - m) / (3.0LF * t * t);       // ~2^-47
  dvec2 t2 = hlo_two_prod_(t, t);
  dvec2 t3 = hlo_dd_mul_d_(t2, t);
  precise double resid = (m - t3.x) - t3.y;
  precise double r = t + resid / (3.0LF * t2.x);
  uvec2 rw = unpackDouble2x32(hlo_ldexp_(r, q));
  return packDouble2x32(uvec2(rw.x, rw.y | (w.y & 0x80000000u)));
}

#endif  // HLO_POW_F64_GLSL
