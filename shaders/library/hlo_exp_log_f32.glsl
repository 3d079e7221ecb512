// f32 exponentials and logarithms (part of hlo_math_f32.glsl):
//
//   hlo_exponential  hlo_exponential_minus_one  hlo_log  hlo_log_plus_one  hlo_logistic
//   hlo_tanh
//
// Cody-Waite reduction x = k ln2 + r (ln2 in two parts, the first with 8 trailing zero bits so
// k * part is exact), a near-minimax polynomial for e^r (tools/fit_coefficients.py), and the
// 2^k scaling done on the bits (denormal results round once; overflow is exact). Logarithms
// follow fdlibm: m = 1 + f in [sqrt(1/2), sqrt(2)), s = f / (2 + f), log(1 + f) = f - hfsq +
// s (hfsq + R(s^2)). Error-prone steps carry a low word (hlo_basic_f32.glsl's double-float),
// so the final rounding dominates: measured maxima are in docs/design.md.
//
// Needs: GLSL 4.50 core only (32-bit types).
#ifndef HLO_EXP_LOG_F32_GLSL
#define HLO_EXP_LOG_F32_GLSL

#include "hlo_basic_f32.glsl"

const float HLO_LOG2E_F = 1.44269504089;
const float HLO_LN2_CW_HI_F = 0.693145751953;  // ln2 to 16 bits: k * it is exact for |k| < 256
const float HLO_LN2_CW_LO_F = 1.42860676533e-6;
const float HLO_LN2_HI_F = 0.693147182465;     // ln2 = HI + LO to 48 bits
const float HLO_LN2_LO_F = -1.90465421213e-9;

// e^r - 1 = r + r^2 P(r) for |r| <= ln2/2 (tools/fit_coefficients.py, EXP_P).
float hlo_exp_poly_f_(float r) {
  return 0.5 + r * (0.166666672 + r * (0.0416664667 + r * (0.00833331048 +
         r * (0.00139336416 + r * 0.000198909809))));
}

// e^(xh + xl) for |xh| <= 104 (xl a small low word); the result's 2^k scaling is exact.
// Returns the significand y in [0.7, 1.5) and k: e^x ~ y * 2^k.
float hlo_exp_reduced_(float xh, float xl, out int k_out) {
  float k = hlo_floor(xh * HLO_LOG2E_F + 0.5);
  precise float rh = xh - k * HLO_LN2_CW_HI_F;  // exact
  precise float rl = xl - k * HLO_LN2_CW_LO_F;
  vec2 r = hlo_two_sum_(rh, rl);
  float p = hlo_exp_poly_f_(r.x);
  // e^(r + r') - 1 = r + r^2 P(r) + r' (1 + r), to well below an ULP of the result.
  precise float tail = r.y * (1.0 + r.x) + r.x * r.x * p;
  precise float y = 1.0 + (r.x + tail);
  k_out = int(k);
  return y;
}

float hlo_scale_(float y, int k) {
  return (k > -126 && k < 128) ? y * hlo_exp2i_(k) : hlo_ldexp_(y, k);
}

float hlo_exponential(float x) {
  if (hlo_is_nan_(x)) return hlo_quiet_(x);
  if (x > 89.0) return hlo_inf_(0u);
  if (x < -104.0) return 0.0;
  int k;
  float y = hlo_exp_reduced_(x, 0.0, k);
  return hlo_scale_(y, k);
}

// e^x for -104 <= x <= 89 as a double-float (hi, lo), ~2^-40 relative.
vec2 hlo_exp_ff_parts_(float x) {
  float k = hlo_floor(x * HLO_LOG2E_F + 0.5);
  precise float rh = x - k * HLO_LN2_CW_HI_F;
  precise float rl = -k * HLO_LN2_CW_LO_F;
  vec2 r = hlo_two_sum_(rh, rl);
  float p = hlo_exp_poly_f_(r.x);
  precise float tail = r.y * (1.0 + r.x) + r.x * r.x * p;
  vec2 s = hlo_fast_two_sum_(r.x, tail);
  vec2 y = hlo_fast_two_sum_(1.0, s.x);
  precise float y_lo = y.y + s.y;
  int ki = int(k);
  return vec2(hlo_scale_(y.x, ki), hlo_ldexp_(y_lo, ki));
}

// e^(xh + xl) for the callers that carry a low word (pow); xh may be anything.
float hlo_exp_ff_(float xh, float xl) {
  if (xh > 89.0) return hlo_inf_(0u);
  if (xh < -104.0) return 0.0;
  int k;
  float y = hlo_exp_reduced_(xh, xl, k);
  return hlo_scale_(y, k);
}

// e^x - 1 as a double-float (hi, lo), for -17.4 < x < 89 and |x| >= 2^-25.
vec2 hlo_expm1_ff_(float x) {
  float k = hlo_floor(x * HLO_LOG2E_F + 0.5);
  if (k == 0.0) {
    float p = hlo_exp_poly_f_(x);
    return hlo_fast_two_sum_(x, x * x * p);
  }
  precise float rh = x - k * HLO_LN2_CW_HI_F;
  precise float rl = -k * HLO_LN2_CW_LO_F;
  vec2 r = hlo_two_sum_(rh, rl);
  float p = hlo_exp_poly_f_(r.x);
  precise float tail = r.y * (1.0 + r.x) + r.x * r.x * p;
  vec2 s = hlo_fast_two_sum_(r.x, tail);  // e^r - 1
  int ki = int(k);
  // e^x - 1 = 2^k (1 + s) - 1.
  if (ki > 24) {
    // 2^k - 1 is not an f32, but 1 is below 2^k's last place: 2^k (1 + (s - 2^-k)).
    precise float t = s.x + (s.y - hlo_exp2i_(max(-ki, -126)));
    return vec2(hlo_ldexp_(1.0 + t, ki), 0.0);
  }
  if (ki < -24) return vec2(-1.0 + hlo_exp2i_(ki) * (1.0 + s.x), 0.0);
  float two_k = hlo_exp2i_(ki);
  vec2 a = hlo_two_sum_(two_k - 1.0, two_k * s.x);  // both exact
  precise float lo = a.y + two_k * s.y;
  return hlo_fast_two_sum_(a.x, lo);
}

float hlo_exponential_minus_one(float x) {
  if (hlo_is_nan_(x)) return hlo_quiet_(x);
  if (x > 89.0) return hlo_inf_(0u);
  if (x < -17.4) return -1.0;
  if (abs(x) < 2.98023224e-8) return x;  // 2^-25: e^x - 1 rounds to x (keeps -0, denormals)
  vec2 e = hlo_expm1_ff_(x);
  return e.x;
}

// log(x) for finite x > 0 as a double-float, from the fdlibm decomposition (also for log1p,
// whose correction c / u enters as `extra`).
vec2 hlo_log_ff_(float x, float extra) {
  uint X;
  int k;
  hlo_split_f32_(floatBitsToUint(x), X, k);
  // m in [sqrt(1/2), sqrt(2)): halve significands above 0x1.6a09e6.
  uint m_bits = (X & 0x7FFFFFu) | 0x3F800000u;
  if (X > 0xB504F3u) {
    m_bits = (X & 0x7FFFFFu) | 0x3F000000u;
    k += 1;
  }
  precise float f = uintBitsToFloat(m_bits) - 1.0;  // exact
  float s = f / (2.0 + f);  // enters only the small correction term
  float z = s * s;
  float R = z * (0.666666865 + z * (0.3998878 + z * 0.295799494));
  precise float hfsq = 0.5 * f * f;
  float fk = float(k);
  precise float lo = (hfsq - (s * (hfsq + R) + (fk * HLO_LN2_CW_LO_F + extra))) - f;
  return hlo_two_sum_(fk * HLO_LN2_CW_HI_F, -lo);
}

float hlo_log(float x) {
  uint b = floatBitsToUint(x);
  if (hlo_is_nan_(x)) return hlo_quiet_(x);
  if ((b & 0x7FFFFFFFu) == 0u) return hlo_inf_(0x80000000u);
  if ((b >> 31) != 0u) return hlo_nan_();
  if (b == 0x7F800000u) return x;
  return hlo_log_ff_(x, 0.0).x;
}

float hlo_log_plus_one(float x) {
  if (hlo_is_nan_(x)) return hlo_quiet_(x);
  if (x == -1.0) return hlo_inf_(0x80000000u);
  if (x < -1.0) return hlo_nan_();
  if (hlo_is_inf_(x)) return x;
  if (abs(x) < 5.96046448e-8) return x;  // 2^-24: log(1 + x) rounds to x
  vec2 u = hlo_two_sum_(1.0, x);         // 1 + x = u.x + u.y exactly
  // log(1 + x) = log(u.x) + log(1 + u.y / u.x) ~ log(u.x) + u.y / u.x.
  return hlo_log_ff_(u.x, u.y / u.x).x;
}

// 1 / (1 + e^-|x|), and e^x / (1 + e^x) for x < 0, with e^-|x| as a double-float and the
// quotient refined against the exact denominator.
// (a.x + a.y) / (b.x + b.y): the correctly rounded quotient of the high words, refined once
// against the exact residual.
float hlo_ff_divide_(vec2 a, vec2 b) {
  float q = hlo_divide(a.x, b.x);
  vec2 p = hlo_two_prod_(q, b.x);
  precise float rho = ((a.x - p.x) - p.y) + a.y - q * b.y;
  precise float r = q + rho / b.x;
  return r;
}

// (a.x + a.y) / (b.x + b.y) for 1 <= b.x < 2^126, from multiplies and adds alone: a reciprocal
// of b.x by Newton's iteration from a bit-pattern estimate (relative error 2^-3.1, then 2^-6,
// 2^-12, 2^-24 and rounding), the quotient of the high words from it (within a few ULP), and
// that quotient refined once against the exact residual as hlo_ff_divide_ does. Every step is
// an IEEE add or multiply (exact rounding in Vulkan; `precise` keeps them unfused), so the
// result is the same on every driver, within 0.5 ULP plus 2^-20 ULP of the quotient; it is
// 3-4x cheaper than the integer-corrected division on CPU drivers (logistic, tanh).
float hlo_ff_quotient_(vec2 a, vec2 b) {
  precise float r = uintBitsToFloat(0x7EF311C3u - floatBitsToUint(b.x));
  [[unroll]] for (int i = 0; i < 3; ++i) {
    precise float e = 2.0 - b.x * r;
    r = r * e;
  }
  precise float q = a.x * r;
  vec2 p = hlo_two_prod_(q, b.x);
  precise float rho = ((a.x - p.x) - p.y) + a.y - q * b.y;
  precise float result = q + rho * r;
  return result;
}

float hlo_logistic(float x) {
  if (hlo_is_nan_(x)) return hlo_quiet_(x);
  vec2 e = abs(x) > 104.0 ? vec2(0.0) : hlo_exp_ff_parts_(-abs(x));  // in [0, 1]
  vec2 d = hlo_two_sum_(1.0, e.x);
  d = hlo_fast_two_sum_(d.x, d.y + e.y);  // 1 + e, in [1, 2]
  return hlo_ff_quotient_(x >= 0.0 ? vec2(1.0, 0.0) : e, d);
}

// tanh |x| = t / (t + 2) with t = e^(2|x|) - 1, the quotient refined against the exact
// denominator; odd.
float hlo_tanh(float x) {
  if (hlo_is_nan_(x)) return hlo_quiet_(x);
  float a = abs(x);
  if (a < 0.000244140625) return x;  // 2^-12: tanh x rounds to x
  if (a > 9.5) return hlo_copysign_(1.0, x);
  vec2 t = hlo_expm1_ff_(2.0 * a);
  vec2 d = hlo_two_sum_(t.x, 2.0);
  precise float dl = d.y + t.y;
  return hlo_copysign_(hlo_ff_quotient_(t, vec2(d.x, dl)), x);  // d.x in [2, 2^28)
}

#endif  // HLO_EXP_LOG_F32_GLSL
