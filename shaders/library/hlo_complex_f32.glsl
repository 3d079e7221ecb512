// complex<f32> helpers (vec2 = real, imaginary) for generated shaders:
//
//   hlo_complex_multiply  hlo_complex_divide  hlo_complex_abs (returns float)  hlo_complex_sign
//   hlo_complex_exponential  hlo_complex_exponential_minus_one  hlo_complex_log
//   hlo_complex_log_plus_one  hlo_complex_sqrt  hlo_complex_rsqrt  hlo_complex_cbrt
//   hlo_complex_sine  hlo_complex_cosine  hlo_complex_tan  hlo_complex_tanh
//   hlo_complex_power  hlo_complex_logistic
//
// Semantics of the reference interpreter (src/interp), which follows std::complex and C99
// Annex G: multiplication and division recover infinities from NaN results the way
// __mulsc3/__divsc3 do; division scales the divisor by a power of two (Smith's algorithm with
// scaling, no overflow or underflow of intermediates) and divides with hlo_divide; |z| is a
// scaled hypot with a double-float sum of squares; exp/log/sqrt/trig keep the Annex G special
// values. Built on hlo_math_f32.glsl; hlo_complex_f64.glsl is generated from this file by
// tools/make_complex_f64.py (types and literals widened), so the two stay the same algorithm.
//
// Needs: GLSL 4.50 core only (32-bit types).
#ifndef HLO_COMPLEX_F32_GLSL
#define HLO_COMPLEX_F32_GLSL

#include "hlo_math_f32.glsl"

// Below -this, logistic(z) = e^z to the last bit (and e^-z may overflow).
const float HLO_C_LOGISTIC_LIMIT_F = 80.0;
// Beyond this |y|, tan(x + iy) is (tiny, +-1) and its formula's squares would overflow.
const float HLO_C_TAN_CUTOFF_F = 20.0;
// exp(x) overflows beyond this; cosh/sinh and exp(x) * cos(y) then go through exp(x / 2)^2.
const float HLO_C_EXP_LIMIT_F = 88.0;

bool hlo_c_isnan_(vec2 z) { return hlo_is_nan_(z.x) || hlo_is_nan_(z.y); }
float hlo_c_one_or_zero_(float v) { return hlo_copysign_(hlo_is_inf_(v) ? 1.0 : 0.0, v); }
float hlo_c_zero_if_nan_(float v) { return hlo_is_nan_(v) ? hlo_copysign_(0.0, v) : v; }

vec2 hlo_complex_multiply(vec2 a, vec2 b) {
  precise float ac = a.x * b.x;
  precise float bd = a.y * b.y;
  precise float ad = a.x * b.y;
  precise float bc = a.y * b.x;
  precise float x = ac - bd;
  precise float y = ad + bc;
  if (hlo_is_nan_(x) && hlo_is_nan_(y)) {
    // C99 Annex G.5.1: an infinite operand makes an infinite product.
    bool recalc = false;
    if (hlo_is_inf_(a.x) || hlo_is_inf_(a.y)) {
      a = vec2(hlo_c_one_or_zero_(a.x), hlo_c_one_or_zero_(a.y));
      b = vec2(hlo_c_zero_if_nan_(b.x), hlo_c_zero_if_nan_(b.y));
      recalc = true;
    }
    if (hlo_is_inf_(b.x) || hlo_is_inf_(b.y)) {
      b = vec2(hlo_c_one_or_zero_(b.x), hlo_c_one_or_zero_(b.y));
      a = vec2(hlo_c_zero_if_nan_(a.x), hlo_c_zero_if_nan_(a.y));
      recalc = true;
    }
    if (!recalc && (hlo_is_inf_(ac) || hlo_is_inf_(bd) || hlo_is_inf_(ad) || hlo_is_inf_(bc))) {
      a = vec2(hlo_c_zero_if_nan_(a.x), hlo_c_zero_if_nan_(a.y));
      b = vec2(hlo_c_zero_if_nan_(b.x), hlo_c_zero_if_nan_(b.y));
      recalc = true;
    }
    if (recalc) {
      precise float rx = a.x * b.x - a.y * b.y;
      precise float ry = a.x * b.y + a.y * b.x;
      x = hlo_inf_(0u) * rx;
      y = hlo_inf_(0u) * ry;
    }
  }
  return vec2(x, y);
}

// The binary exponent of max(|c|, |d|) (finite, not both zero), for scaling.
int hlo_c_exponent_(float c, float d) { return hlo_ilogb_(max(abs(c), abs(d))); }

vec2 hlo_complex_divide(vec2 a, vec2 b) {
  float c = b.x, d = b.y;
  bool b_finite = hlo_is_finite(c) && hlo_is_finite(d);
  bool b_zero = c == 0.0 && d == 0.0;
  int k = 0;
  if (b_finite && !b_zero) {
    // Scale the divisor's larger part to [1, 2) and the dividend's likewise (exact), so no
    // intermediate overflows or underflows; Smith's ordering avoids forming c^2 + d^2.
    k = hlo_c_exponent_(c, d);
    c = hlo_ldexp_(c, -k);
    d = hlo_ldexp_(d, -k);
    if (hlo_is_finite(a.x) && hlo_is_finite(a.y) && (a.x != 0.0 || a.y != 0.0)) {
      int ka = hlo_c_exponent_(a.x, a.y);
      a = vec2(hlo_ldexp_(a.x, -ka), hlo_ldexp_(a.y, -ka));
      k -= ka;
    }
  }
  if (b_zero) {
    // a / (0 + 0i), Annex G: each part of a times an infinity with the sign of b's real part.
    uint sc = hlo_sign_bit_(b.x);
    if (hlo_c_isnan_(a)) return vec2(hlo_nan_());
    return vec2(a.x == 0.0 ? hlo_nan_() : hlo_inf_(hlo_sign_bit_(a.x) ^ sc),
                a.y == 0.0 ? hlo_nan_() : hlo_inf_(hlo_sign_bit_(a.y) ^ sc));
  }
  // `precise` here and below: zero signs and NaNs must survive the compiler (0 - x is not -x).
  // One inlined copy of each division: the operands are chosen, not the calls.
  bool c_major = abs(c) >= abs(d);
  precise float r = hlo_divide(c_major ? d : c, c_major ? c : d);
  precise float den, nx, ny;
  if (c_major) {
    den = c + d * r;
    nx = a.x + a.y * r;
    ny = a.y - a.x * r;
  } else {
    den = c * r + d;
    nx = a.x * r + a.y;
    ny = a.y * r - a.x;
  }
  vec2 q = hlo_divide2_(vec2(nx, ny), den);
  precise float x = q.x, y = q.y;
  x = hlo_ldexp_(x, -k);
  y = hlo_ldexp_(y, -k);
  if (hlo_is_nan_(x) && hlo_is_nan_(y)) {
    // C99 Annex G.5.1 recovery.
    if (b_zero && (!hlo_is_nan_(a.x) || !hlo_is_nan_(a.y))) {
      precise float inf = hlo_copysign_(hlo_inf_(0u), b.x);
      x = inf * a.x;
      y = inf * a.y;
    } else if ((hlo_is_inf_(a.x) || hlo_is_inf_(a.y)) && b_finite) {
      vec2 u = vec2(hlo_c_one_or_zero_(a.x), hlo_c_one_or_zero_(a.y));
      x = hlo_inf_(0u) * (u.x * b.x + u.y * b.y);
      y = hlo_inf_(0u) * (u.y * b.x - u.x * b.y);
    } else if ((hlo_is_inf_(b.x) || hlo_is_inf_(b.y)) && hlo_is_finite(a.x) && hlo_is_finite(a.y)) {
      vec2 v = vec2(hlo_c_one_or_zero_(b.x), hlo_c_one_or_zero_(b.y));
      x = 0.0 * (a.x * v.x + a.y * v.y);
      y = 0.0 * (a.y * v.x - a.x * v.y);
    }
  }
  return vec2(x, y);
}

// hypot(x, y) * 2^-k for finite z != 0, with k = the exponent of the larger part: the sum of
// squares as a double-float (no overflow or underflow), its square root corrected to first
// order.
float hlo_c_abs_scaled_(vec2 z, out int k) {
  k = hlo_c_exponent_(z.x, z.y);
  float sx = hlo_ldexp_(abs(z.x), -k), sy = hlo_ldexp_(abs(z.y), -k);
  vec2 s = hlo_ff_add_(hlo_two_prod_(sx, sx), hlo_two_prod_(sy, sy));
  float r = hlo_sqrt(s.x);
  vec2 rr = hlo_two_prod_(r, r);
  precise float corrected = r + (((s.x - rr.x) - rr.y) + s.y) / (2.0 * r);
  return corrected;
}

// hypot(x, y) without overflow or underflow; infinity wins over NaN.
float hlo_complex_abs(vec2 z) {
  if (hlo_is_inf_(z.x) || hlo_is_inf_(z.y)) return hlo_inf_(0u);
  if (hlo_c_isnan_(z)) return hlo_nan_();
  if (z.x == 0.0 && z.y == 0.0) return 0.0;
  int k;
  float r = hlo_c_abs_scaled_(z, k);
  return hlo_ldexp_(r, k);
}

vec2 hlo_complex_sign(vec2 z) {
  if (hlo_c_isnan_(z)) return vec2(hlo_nan_());
  if (z.x == 0.0 && z.y == 0.0) return z;
  if (hlo_is_inf_(z.x) || hlo_is_inf_(z.y)) {
    // z / |z| with |z| = inf (the interpreter's definition): inf / inf is NaN, finite / inf 0.
    return vec2(hlo_is_inf_(z.x) ? hlo_nan_() : hlo_copysign_(0.0, z.x),
                hlo_is_inf_(z.y) ? hlo_nan_() : hlo_copysign_(0.0, z.y));
  }
  int k = hlo_c_exponent_(z.x, z.y);
  vec2 s = vec2(hlo_ldexp_(z.x, -k), hlo_ldexp_(z.y, -k));
  float m = hlo_complex_abs(s);
  return hlo_divide2_(s, m);
}

// e^x * (c, s) without overflowing e^x where the product is finite.
vec2 hlo_c_exp_scale_(float x, float c, float s) {
  if (x > HLO_C_EXP_LIMIT_F) {
    float h = hlo_exponential(0.5 * x);
    return vec2((c * h) * h, (s * h) * h);
  }
  float e = hlo_exponential(x);
  return vec2(c * e, s * e);
}

vec2 hlo_complex_exponential(vec2 z) {
  float x = z.x, y = z.y;
  if (y == 0.0) return vec2(hlo_exponential(x), y);  // also NaN + i0 -> NaN + i0
  if (hlo_is_inf_(x)) {
    if (!hlo_is_finite(y)) {
      // exp(+inf + i inf/NaN) = +-inf + i NaN; exp(-inf + i inf/NaN) = +-0 +-i0.
      return x > 0.0 ? vec2(x, hlo_nan_()) : vec2(0.0, hlo_copysign_(0.0, y));
    }
    vec2 cs = hlo_sincos_(y);
    return x > 0.0 ? vec2(hlo_copysign_(x, cs.x), hlo_copysign_(x, cs.y))
                   : vec2(hlo_copysign_(0.0, cs.x), hlo_copysign_(0.0, cs.y));
  }
  if (hlo_is_nan_(x) || !hlo_is_finite(y)) return vec2(hlo_nan_());
  vec2 cs = hlo_sincos_(y);
  return hlo_c_exp_scale_(x, cs.x, cs.y);
}

// exp(x + iy) - 1 = (expm1(x) cos y - 2 sin^2(y/2)) + i exp(x) sin y (the interpreter's form,
// special values included).
vec2 hlo_complex_exponential_minus_one(vec2 z) {
  float x = z.x, y = z.y;
  if (y == 0.0) return vec2(hlo_exponential_minus_one(x), y);
  float half_sin = hlo_sine(0.5 * y);
  vec2 cs = hlo_sincos_(y);
  precise float re = hlo_exponential_minus_one(x) * cs.x - 2.0 * half_sin * half_sin;
  float s = cs.y;
  precise float im;
  if (x > HLO_C_EXP_LIMIT_F) {
    float h = hlo_exponential(0.5 * x);
    im = (s * h) * h;
  } else {
    im = hlo_exponential(x) * s;
  }
  return vec2(re, im);
}

vec2 hlo_complex_log(vec2 z) {
  float x = z.x, y = z.y;
  float angle = hlo_atan2(y, x);
  if (hlo_is_inf_(x) || hlo_is_inf_(y)) return vec2(hlo_inf_(0u), angle);
  if (hlo_c_isnan_(z)) return vec2(hlo_nan_(), hlo_nan_());
  if (x == 0.0 && y == 0.0) return vec2(-hlo_inf_(0u), angle);
  float ax = abs(x), ay = abs(y);
  float big = max(ax, ay), small = min(ax, ay);
  if (big >= 0.5 && big <= 2.0 && small < 1.0) {
    // log|z| = log1p(x^2 + y^2 - 1) / 2, the argument from exact squares: no cancellation
    // near |z| = 1.
    vec2 s = hlo_ff_add_(hlo_two_prod_(big, big), vec2(-1.0, 0.0));
    s = hlo_ff_add_(s, hlo_two_prod_(small, small));
    return vec2(0.5 * hlo_log_plus_one(s.x + s.y), angle);
  }
  // log|z| = log(|z| 2^-k) + k ln2: |z| itself may overflow or be a denormal.
  int k;
  float r = hlo_c_abs_scaled_(z, k);
  vec2 l = hlo_log_ff_(r, 0.0);
  return vec2(hlo_ff_add_(l, hlo_ff_mul_f_(vec2(HLO_LN2_HI_F, HLO_LN2_LO_F), float(k))).x, angle);
}

vec2 hlo_complex_log_plus_one(vec2 z) {
  float x = z.x, y = z.y;
  if (hlo_is_finite(x) && hlo_is_finite(y) && hlo_complex_abs(z) < 0.5) {
    // log|1 + z| = log1p(2x + x^2 + y^2) / 2.
    precise float t = x * (2.0 + x) + y * y;
    return vec2(0.5 * hlo_log_plus_one(t), hlo_atan2(y, 1.0 + x));
  }
  return hlo_complex_log(vec2(1.0 + x, y));
}

vec2 hlo_complex_sqrt(vec2 z) {
  float x = z.x, y = z.y;
  if (hlo_is_inf_(y)) return vec2(hlo_inf_(0u), y);
  if (hlo_is_nan_(x)) return vec2(x, hlo_nan_());
  if (hlo_is_inf_(x)) {
    if (x > 0.0) return vec2(x, hlo_is_nan_(y) ? y : hlo_copysign_(0.0, y));
    return vec2(hlo_is_nan_(y) ? y : 0.0, hlo_copysign_(hlo_inf_(0u), y));
  }
  if (hlo_is_nan_(y)) return vec2(y, y);
  if (x == 0.0 && y == 0.0) return vec2(0.0, y);
  // t = sqrt((|x| + |z|) / 2), scaled by an even power of two.
  int k = hlo_c_exponent_(x, y) & ~1;
  float sx = hlo_ldexp_(x, -k), sy = hlo_ldexp_(y, -k);
  float t = hlo_sqrt(0.5 * (abs(sx) + hlo_complex_abs(vec2(sx, sy))));
  float other = hlo_divide(abs(sy), 2.0 * t);
  float t_scaled = hlo_ldexp_(t, k / 2), other_scaled = hlo_ldexp_(other, k / 2);
  if (x >= 0.0) return vec2(t_scaled, hlo_copysign_(other_scaled, y));
  return vec2(other_scaled, hlo_copysign_(t_scaled, y));
}

vec2 hlo_complex_rsqrt(vec2 z) {
  if (z.x == 0.0 && z.y == 0.0) return vec2(hlo_inf_(0u), hlo_nan_());  // 1 / (0 + 0i), Annex G
  return hlo_complex_divide(vec2(1.0, 0.0), hlo_complex_sqrt(z));
}

// The principal cube root: |z|^(1/3) at a third of the angle (pow(z, 1/3) as std::complex).
vec2 hlo_complex_cbrt(vec2 z) {
  if (z.x == 0.0 && z.y == 0.0) return z;
  if (z.y == 0.0 && z.x > 0.0) return vec2(hlo_cbrt(z.x), 0.0);
  if (hlo_c_isnan_(z)) return vec2(hlo_nan_());
  vec2 cs = hlo_sincos_(hlo_atan2(z.y, z.x) * (1.0 / 3.0));
  float r;
  if (hlo_is_inf_(z.x) || hlo_is_inf_(z.y)) {
    r = hlo_inf_(0u);
  } else {
    // |z| = m 2^k, cbrt|z| = cbrt(m 2^(k mod 3)) 2^(k div 3): no overflow, no denormal |z|.
    int k;
    float m = hlo_c_abs_scaled_(z, k);
    int q = (k >= 0 ? k : k - 2) / 3;
    r = hlo_ldexp_(hlo_cbrt(hlo_ldexp_(m, k - 3 * q)), q);
  }
  return vec2(r * cs.x, r * cs.y);
}

// (a cosh y, b sinh y) for finite y, without overflowing where the products are finite
// (through e^(|y|/2) squared), sinh accurate near 0 through expm1; a zero factor gives a zero.
vec2 hlo_c_scaled_cosh_sinh_(float y, float a, float b) {
  float ay = abs(y);
  precise float sb = hlo_copysign_(1.0, y) * b;  // b sinh y = (b sign(y)) sinh|y|
  if (ay > HLO_C_EXP_LIMIT_F) {
    float h = hlo_exponential(0.5 * ay);
    precise float re = a == 0.0 ? a : (a * h) * (0.5 * h);
    precise float im = b == 0.0 ? sb : (sb * h) * (0.5 * h);
    return vec2(re, im);
  }
  float em = hlo_exponential_minus_one(ay);  // e^|y| - 1
  float e = em + 1.0;
  vec2 q = hlo_divide2_(vec2(em, 1.0), e);  // (e - 1) / e, 1 / e
  precise float sinh_a = 0.5 * (em + q.x);  // (e - 1/e) / 2
  precise float cosh_a = 0.5 * (e + q.y);
  precise float re = a * cosh_a;
  precise float im = sb * sinh_a;
  return vec2(re, im);
}

// Annex G values of sinh, cosh and tanh at x + iy with a non-finite part (glibc's choices
// where the standard leaves a sign open). sin z = -i sinh(iz), cos z = cosh(iz),
// tan z = -i tanh(iz).
vec2 hlo_c_sinh_special_(float x, float y) {
  if (hlo_is_inf_(x)) {
    if (y == 0.0) return vec2(x, y);
    if (hlo_is_finite(y)) {
      // sinh(x + iy) = sinh x cos y + i cosh x sin y.
      vec2 cs = hlo_sincos_(y);
      precise float sign_re = hlo_copysign_(1.0, x) * cs.x;
      return vec2(hlo_copysign_(hlo_inf_(0u), sign_re), hlo_copysign_(hlo_inf_(0u), cs.y));
    }
    return vec2(x, hlo_nan_());
  }
  if (x == 0.0) return vec2(x, hlo_nan_());
  if (hlo_is_nan_(x) && y == 0.0) return vec2(x, y);
  return vec2(hlo_nan_(), hlo_nan_());
}
vec2 hlo_c_cosh_special_(float x, float y) {
  if (hlo_is_inf_(x)) {
    if (y == 0.0) return vec2(hlo_inf_(0u), hlo_copysign_(0.0, x) * y);
    if (hlo_is_finite(y)) {
      vec2 cs = hlo_sincos_(y);
      precise float sign_im = hlo_copysign_(1.0, x) * cs.y;
      return vec2(hlo_copysign_(hlo_inf_(0u), cs.x), hlo_copysign_(hlo_inf_(0u), sign_im));
    }
    return vec2(hlo_inf_(0u), hlo_nan_());
  }
  if (x == 0.0) return vec2(hlo_nan_(), 0.0);
  if (hlo_is_nan_(x) && y == 0.0) return vec2(x, 0.0);
  return vec2(hlo_nan_(), hlo_nan_());
}
// `cs_y` is (cos y, sin y) when y is finite: the zero's sign is sin 2y's, taken from sin y cos y
// as glibc does (and so without a second range reduction in the kernel).
vec2 hlo_c_tanh_special_(float x, float y, vec2 cs_y) {
  if (hlo_is_inf_(x)) {
    float im = hlo_is_finite(y) ? hlo_copysign_(0.0, cs_y.x * cs_y.y) : hlo_copysign_(0.0, y);
    return vec2(hlo_copysign_(1.0, x), im);
  }
  if (x == 0.0) return vec2(x, hlo_nan_());
  if (hlo_is_nan_(x) && y == 0.0) return vec2(x, y);
  return vec2(hlo_nan_(), hlo_nan_());
}
bool hlo_c_finite_(vec2 z) { return hlo_is_finite(z.x) && hlo_is_finite(z.y); }

// sin(x + iy) = sin x cosh y + i cos x sinh y.
vec2 hlo_complex_sine(vec2 z) {
  float x = z.x, y = z.y;
  if (!hlo_c_finite_(z)) {
    vec2 s = hlo_c_sinh_special_(-y, x);
    return vec2(s.y, -s.x);
  }
  vec2 cs = hlo_sincos_(x);
  return hlo_c_scaled_cosh_sinh_(y, cs.y, cs.x);
}

// cos(x + iy) = cos x cosh y - i sin x sinh y.
vec2 hlo_complex_cosine(vec2 z) {
  float x = z.x, y = z.y;
  if (!hlo_c_finite_(z)) return hlo_c_cosh_special_(-y, x);
  vec2 cs = hlo_sincos_(x);
  vec2 r = hlo_c_scaled_cosh_sinh_(y, cs.x, cs.y);
  return vec2(r.x, -r.y);
}

// tan(x + iy), Kahan's form: t = tan x, s = sinh y, b = 1 + t^2:
//   (t + i b s sqrt(1 + s^2)) / (1 + b s^2); for large |y|, (4 sin x cos x e^-2|y|, +-1).
vec2 hlo_complex_tan(vec2 z) {
  float x = z.x, y = z.y;
  vec2 cs;
  float t = hlo_tan_sincos_(x, cs);  // one range reduction for every path below
  if (!hlo_c_finite_(z)) {
    vec2 special = hlo_c_tanh_special_(-y, x, cs);
    return vec2(special.y, -special.x);
  }
  if (abs(y) > HLO_C_TAN_CUTOFF_F) {
    float e = hlo_exponential(-2.0 * abs(y));
    precise float re = 4.0 * cs.y * cs.x * e;
    return vec2(re, hlo_copysign_(1.0, y));
  }
  if (y == 0.0) return vec2(t, y);
  vec2 ch = hlo_c_scaled_cosh_sinh_(y, 1.0, 1.0);  // |y| <= the cutoff: no overflow
  float s = ch.y;
  precise float b = 1.0 + t * t;
  precise float den = 1.0 + b * s * s;
  precise float im_num = b * s * ch.x;
  return hlo_divide2_(vec2(t, im_num), den);
}

// tanh z = -i tan(iz).
vec2 hlo_complex_tanh(vec2 z) {
  vec2 t = hlo_complex_tan(vec2(-z.y, z.x));
  return vec2(t.y, -t.x);
}

vec2 hlo_complex_power(vec2 a, vec2 b) {
  if (a.x == 0.0 && a.y == 0.0 && !hlo_c_isnan_(b)) {
    if (b.x == 0.0 && b.y == 0.0) return vec2(1.0, 0.0);
    if (b.x > 0.0) return vec2(0.0);
  }
  // cpow(a, b) = cexp(b * clog(a)).
  return hlo_complex_exponential(hlo_complex_multiply(b, hlo_complex_log(a)));
}

vec2 hlo_complex_logistic(vec2 z) {
  // For Re z < -limit, e^-z dominates 1 and may overflow: 1 / (1 + e^-z) = e^z (1 - e^z + ...).
  if (z.x < -HLO_C_LOGISTIC_LIMIT_F && hlo_c_finite_(z)) return hlo_complex_exponential(z);
  vec2 e = hlo_complex_exponential(vec2(-1.0, -1.0) * z);
  return hlo_complex_divide(vec2(1.0, 0.0), vec2(1.0 + e.x, e.y));
}

#endif  // HLO_COMPLEX_F32_GLSL
