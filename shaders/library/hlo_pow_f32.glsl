// f32 power and cube root (part of hlo_math_f32.glsl): hlo_power (C pow), hlo_cbrt.
//
// pow(x, y) = e^(y log|x|) with log|x| as a double-float (~2^-44): log(1 + f) = 2s + 2/3 s^3 +
// s^5 T(s^2), the first two terms in double-float arithmetic; y log|x| as a double-float
// product; the exponential takes the low word. Special cases follow C99 pow (Annex F).
// cbrt: an exponent-thirds bit estimate, three Newton steps, and a final step against the
// exact residual m - t^3 (Dekker products).
//
// Needs: GLSL 4.50 core only (32-bit types).
#ifndef HLO_POW_F32_GLSL
#define HLO_POW_F32_GLSL

#include "hlo_basic_f32.glsl"
#include "hlo_exp_log_f32.glsl"

const float HLO_TWO_THIRDS_HI_F = 0.666666686535;
const float HLO_TWO_THIRDS_LO_F = -1.98682155172e-8;

// log(a) for finite a > 0 as a double-float accurate to ~2^-44.
vec2 hlo_log_accurate_ff_(float a) {
  uint X;
  int k;
  hlo_split_f32_(floatBitsToUint(a), X, k);
  uint m_bits = (X & 0x7FFFFFu) | 0x3F800000u;
  if (X > 0xB504F3u) {
    m_bits = (X & 0x7FFFFFu) | 0x3F000000u;
    k += 1;
  }
  precise float f = uintBitsToFloat(m_bits) - 1.0;  // exact
  // s = f / (2 + f) as a double-float.
  vec2 d = hlo_two_sum_(2.0, f);
  float sh = hlo_divide(f, d.x);
  vec2 p = hlo_two_prod_(sh, d.x);
  precise float sl = (((f - p.x) - p.y) - sh * d.y) / d.x;
  vec2 s = vec2(sh, sl);
  vec2 z = hlo_ff_mul_(s, s);
  vec2 s3 = hlo_ff_mul_(z, s);
  vec2 term3 = hlo_ff_mul_(s3, vec2(HLO_TWO_THIRDS_HI_F, HLO_TWO_THIRDS_LO_F));
  float T = 0.400000006 + z.x * (0.285715312 + z.x * (0.222047657 + z.x * 0.191203579));
  vec2 l = hlo_ff_add_(2.0 * s, term3);
  l = hlo_ff_add_(l, vec2(s3.x * z.x * T, 0.0));
  float fk = float(k);
  vec2 kl = hlo_ff_add_(vec2(fk * HLO_LN2_CW_HI_F, 0.0), hlo_two_prod_(fk, HLO_LN2_CW_LO_F));
  return hlo_ff_add_(kl, l);
}

// Whether y (finite) is an integer, and an odd one.
bool hlo_is_integer_(float y) { return hlo_floor(y) == y; }
bool hlo_is_odd_integer_(float y) {
  return abs(y) < 16777216.0 && hlo_floor(y) == y && hlo_floor(y * 0.5) != y * 0.5;
}

float hlo_power(float x, float y) {
  uint bx = floatBitsToUint(x), by = floatBitsToUint(y);
  if ((by & 0x7FFFFFFFu) == 0u) return 1.0;  // x^0 = 1, even for NaN x
  if (bx == 0x3F800000u) return 1.0;         // 1^y = 1, even for NaN y
  if (hlo_is_nan_(x)) return hlo_quiet_(x);
  if (hlo_is_nan_(y)) return hlo_quiet_(y);
  float ax = abs(x);
  bool x_negative = (bx >> 31) != 0u;
  if (hlo_is_inf_(y)) {
    if (ax == 1.0) return 1.0;  // (-1)^+-inf
    return ((ax > 1.0) == (y > 0.0)) ? hlo_inf_(0u) : 0.0;
  }
  bool odd = hlo_is_odd_integer_(y);
  uint sign = (x_negative && odd) ? 0x80000000u : 0u;
  if (ax == 0.0 || hlo_is_inf_(x)) {
    // +-0 and +-inf: 0^y and inf^y, signed for odd integer y.
    bool big = (ax == 0.0) == (y < 0.0);
    return uintBitsToFloat(sign | (big ? 0x7F800000u : 0u));
  }
  if (x_negative && !hlo_is_integer_(y)) return hlo_nan_();
  // |y| >= 2^64 (an even integer): |x|^y is 1, or overflows, or underflows (|log x| >= 2^-24).
  if (abs(y) >= 1.8446744e19) return ax == 1.0 ? 1.0 : ((ax > 1.0) == (y > 0.0) ? hlo_inf_(0u) : 0.0);
  vec2 l = hlo_log_accurate_ff_(ax);
  vec2 z = hlo_ff_mul_f_(l, y);
  float r = hlo_exp_ff_(z.x, z.y);
  return uintBitsToFloat(floatBitsToUint(r) | sign);
}

float hlo_cbrt(float x) {
  uint b = floatBitsToUint(x);
  uint a = b & 0x7FFFFFFFu;
  if (a == 0u || a >= 0x7F800000u) return hlo_is_nan_(x) ? hlo_quiet_(x) : x;
  uint X;
  int ex;
  hlo_split_f32_(a, X, ex);
  // |x| = m * 2^(3q), m in [1, 8).
  int q = (ex >= 0 ? ex : ex - 2) / 3;
  int rem = ex - 3 * q;
  float m = uintBitsToFloat((X & 0x7FFFFFu) | 0x3F800000u) * float(1 << rem);
  // cbrt(m) in [1, 2): a quadratic start (error < 5%), three Newton steps (~1e-10).
  float t = 0.82083115 + m * (0.2374247 - 0.01159338 * m);
  for (int i = 0; i < 3; ++i) t = t - (t * t * t - m) / (3.0 * t * t);
  // One more step on the exact residual m - t^3.
  vec2 t2 = hlo_two_prod_(t, t);
  vec2 t3 = hlo_ff_mul_f_(t2, t);
  precise float resid = (m - t3.x) - t3.y;
  precise float r = t + resid / (3.0 * t2.x);
  return uintBitsToFloat(floatBitsToUint(hlo_ldexp_(r, q)) | (b & 0x80000000u));
}

#endif  // HLO_POW_F32_GLSL
