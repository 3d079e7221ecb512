// complex<f64> helpers (dvec2 = real, imaginary): the double overloads of every function of
// hlo_complex_f32.glsl (which see), generated from it by tools/make_complex_f64.py: the same
// algorithms on hlo_math_f64.glsl. Do not edit; edit the f32 file and regenerate.
//
// Needs: the Float64 capability (shaderFloat64).
#ifndef HLO_COMPLEX_F64_GLSL
#define HLO_COMPLEX_F64_GLSL

#include "hlo_complex_f32.glsl"
#include "hlo_math_f64.glsl"

// Below -this, logistic(z) = e^z to the last bit (and e^-z may overflow).
const double HLO_C_LOGISTIC_LIMIT_D = 700.0LF;
// Beyond this |y|, tan(x + iy) is (tiny, +-1) and its formula's squares would overflow.
const double HLO_C_TAN_CUTOFF_D = 20.0LF;
// exp(x) overflows beyond this; cosh/sinh and exp(x) * cos(y) then go through exp(x / 2)^2.LF
const double HLO_C_EXP_LIMIT_D = 709.0LF;

bool hlo_c_isnan_(dvec2 z) { return hlo_is_nan_(z.x) || hlo_is_nan_(z.y); }
double hlo_c_one_or_zero_(double v) { return hlo_copysign_(hlo_is_inf_(v) ? 1.0LF : 0.0LF, v); }
double hlo_c_zero_if_nan_(double v) { return hlo_is_nan_(v) ? hlo_copysign_(0.0LF, v) : v; }

dvec2 hlo_complex_multiply(dvec2 a, dvec2 b) {
  precise double ac = a.x * b.x;
  precise double bd = a.y * b.y;
  precise double ad = a.x * b.y;
  precise double bc = a.y * b.x;
  precise double x = ac - bd;
  precise double y = ad + bc;
  if (hlo_is_nan_(x) && hlo_is_nan_(y)) {
    // C99 Annex G.5.1: an infinite operand makes an infinite product.
    bool recalc = false;
    if (hlo_is_inf_(a.x) || hlo_is_inf_(a.y)) {
      a = dvec2(hlo_c_one_or_zero_(a.x), hlo_c_one_or_zero_(a.y));
      b = dvec2(hlo_c_zero_if_nan_(b.x), hlo_c_zero_if_nan_(b.y));
      recalc = true;
    }
    if (hlo_is_inf_(b.x) || hlo_is_inf_(b.y)) {
      b = dvec2(hlo_c_one_or_zero_(b.x), hlo_c_one_or_zero_(b.y));
      a = dvec2(hlo_c_zero_if_nan_(a.x), hlo_c_zero_if_nan_(a.y));
      recalc = true;
    }
    if (!recalc && (hlo_is_inf_(ac) || hlo_is_inf_(bd) || hlo_is_inf_(ad) || hlo_is_inf_(bc))) {
      a = dvec2(hlo_c_zero_if_nan_(a.x), hlo_c_zero_if_nan_(a.y));
      b = dvec2(hlo_c_zero_if_nan_(b.x), hlo_c_zero_if_nan_(b.y));
      recalc = true;
    }
    if (recalc) {
      precise double rx = a.x * b.x - a.y * b.y;
      precise double ry = a.x * b.y + a.y * b.x;
      x = hlo_inf_f64_(0u) * rx;
      y = hlo_inf_f64_(0u) * ry;
    }
  }
  return dvec2(x, y);
}

// The binary exponent of max(|c|, |d|) (finite, not both zero), for scaling.
int hlo_c_exponent_(double c, double d) { return hlo_ilogb_(max(abs(c), abs(d))); }

dvec2 hlo_complex_divide(dvec2 a, dvec2 b) {
  double c = b.x, d = b.y;
  bool b_finite = hlo_is_finite(c) && hlo_is_finite(d);
  bool b_zero = c == 0.0LF && d == 0.0LF;
  int k = 0;
  if (b_finite && !b_zero) {
    // Scale the divisor's larger part to [1, 2) and the dividend's likewise (exact), so no
    // intermediate overflows or underflows; Smith's ordering avoids forming c^2 + d^2.LF
    k = hlo_c_exponent_(c, d);
    c = hlo_ldexp_(c, -k);
    d = hlo_ldexp_(d, -k);
    if (hlo_is_finite(a.x) && hlo_is_finite(a.y) && (a.x != 0.0LF || a.y != 0.0LF)) {
      int ka = hlo_c_exponent_(a.x, a.y);
      a = dvec2(hlo_ldexp_(a.x, -ka), hlo_ldexp_(a.y, -ka));
      k -= ka;
    }
  }
  if (b_zero) {
    // a / (0 + 0i), Annex G: each part of a times an infinity with the sign of b's real part.
    uint sc = hlo_sign_bit_(b.x);
    if (hlo_c_isnan_(a)) return dvec2(hlo_nan_f64_());
    return dvec2(a.x == 0.0LF ? hlo_nan_f64_() : hlo_inf_f64_(hlo_sign_bit_(a.x) ^ sc),
                a.y == 0.0LF ? hlo_nan_f64_() : hlo_inf_f64_(hlo_sign_bit_(a.y) ^ sc));
  }
  // `precise` here and below: zero signs and NaNs must survive the compiler (0 - x is not -x).
  // One inlined copy of each division: the operands are chosen, not the calls.
  bool c_major = abs(c) >= abs(d);
  precise double r = hlo_divide(c_major ? d : c, c_major ? c : d);
  precise double den, nx, ny;
  if (c_major) {
    den = c + d * r;
    nx = a.x + a.y * r;
    ny = a.y - a.x * r;
  } else {
    den = c * r + d;
    nx = a.x * r + a.y;
    ny = a.y * r - a.x;
  }
  dvec2 q = hlo_divide2_(dvec2(nx, ny), den);
  precise double x = q.x, y = q.y;
  x = hlo_ldexp_(x, -k);
  y = hlo_ldexp_(y, -k);
  if (hlo_is_nan_(x) && hlo_is_nan_(y)) {
    // C99 Annex G.5.1 recovery.
    if (b_zero && (!hlo_is_nan_(a.x) || !hlo_is_nan_(a.y))) {
      precise double inf = hlo_copysign_(hlo_inf_f64_(0u), b.x);
      x = inf * a.x;
      y = inf * a.y;
    } else if ((hlo_is_inf_(a.x) || hlo_is_inf_(a.y)) && b_finite) {
      dvec2 u = dvec2(hlo_c_one_or_zero_(a.x), hlo_c_one_or_zero_(a.y));
      x = hlo_inf_f64_(0u) * (u.x * b.x + u.y * b.y);
      y = hlo_inf_f64_(0u) * (u.y * b.x - u.x * b.y);
    } else if ((hlo_is_inf_(b.x) || hlo_is_inf_(b.y)) && hlo_is_finite(a.x) && hlo_is_finite(a.y)) {
      dvec2 v = dvec2(hlo_c_one_or_zero_(b.x), hlo_c_one_or_zero_(b.y));
      x = 0.0LF * (a.x * v.x + a.y * v.y);
      y = 0.0LF * (a.y * v.x - a.x * v.y);
    }
  }
  return dvec2(x, y);
}

// hypot(x, y) * 2^-k for finite z != 0, with k = the exponent of the larger part: the sum of
// squares as a double-double (no overflow or underflow), its square root corrected to first
// order.
double hlo_c_abs_scaled_(dvec2 z, out int k) {
  k = hlo_c_exponent_(z.x, z.y);
  double sx = hlo_ldexp_(abs(z.x), -k), sy = hlo_ldexp_(abs(z.y), -k);
  dvec2 s = hlo_dd_add_(hlo_two_prod_(sx, sx), hlo_two_prod_(sy, sy));
  double r = hlo_sqrt(s.x);
  dvec2 rr = hlo_two_prod_(r, r);
  precise double corrected = r + (((s.x - rr.x) - rr.y) + s.y) / (2.0LF * r);
  return corrected;
}

// hypot(x, y) without overflow or underflow; infinity wins over NaN.
double hlo_complex_abs(dvec2 z) {
  if (hlo_is_inf_(z.x) || hlo_is_inf_(z.y)) return hlo_inf_f64_(0u);
  if (hlo_c_isnan_(z)) return hlo_nan_f64_();
  if (z.x == 0.0LF && z.y == 0.0LF) return 0.0LF;
  int k;
  double r = hlo_c_abs_scaled_(z, k);
  return hlo_ldexp_(r, k);
}

dvec2 hlo_complex_sign(dvec2 z) {
  if (hlo_c_isnan_(z)) return dvec2(hlo_nan_f64_());
  if (z.x == 0.0LF && z.y == 0.0LF) return z;
  if (hlo_is_inf_(z.x) || hlo_is_inf_(z.y)) {
    // z / |z| with |z| = inf (the interpreter's definition): inf / inf is NaN, finite / inf 0.LF
    return dvec2(hlo_is_inf_(z.x) ? hlo_nan_f64_() : hlo_copysign_(0.0LF, z.x),
                hlo_is_inf_(z.y) ? hlo_nan_f64_() : hlo_copysign_(0.0LF, z.y));
  }
  int k = hlo_c_exponent_(z.x, z.y);
  dvec2 s = dvec2(hlo_ldexp_(z.x, -k), hlo_ldexp_(z.y, -k));
  double m = hlo_complex_abs(s);
  return hlo_divide2_(s, m);
}

// e^x * (c, s) without overflowing e^x where the product is finite.
dvec2 hlo_c_exp_scale_(double x, double c, double s) {
  if (x > HLO_C_EXP_LIMIT_D) {
    double h = hlo_exponential(0.5LF * x);
    return dvec2((c * h) * h, (s * h) * h);
  }
  double e = hlo_exponential(x);
  return dvec2(c * e, s * e);
}

dvec2 hlo_complex_exponential(dvec2 z) {
  double x = z.x, y = z.y;
  if (y == 0.0LF) return dvec2(hlo_exponential(x), y);  // also NaN + i0 -> NaN + i0
  if (hlo_is_inf_(x)) {
    if (!hlo_is_finite(y)) {
      // exp(+inf + i inf/NaN) = +-inf + i NaN; exp(-inf + i inf/NaN) = +-0 +-i0.
      return x > 0.0LF ? dvec2(x, hlo_nan_f64_()) : dvec2(0.0LF, hlo_copysign_(0.0LF, y));
    }
    dvec2 cs = hlo_sincos_(y);
    return x > 0.0LF ? dvec2(hlo_copysign_(x, cs.x), hlo_copysign_(x, cs.y))
                   : dvec2(hlo_copysign_(0.0LF, cs.x), hlo_copysign_(0.0LF, cs.y));
  }
  if (hlo_is_nan_(x) || !hlo_is_finite(y)) return dvec2(hlo_nan_f64_());
  dvec2 cs = hlo_sincos_(y);
  return hlo_c_exp_scale_(x, cs.x, cs.y);
}

// exp(x + iy) - 1 = (expm1(x) cos y - 2 sin^2(y/2)) + i exp(x) sin y (the interpreter's form,
// special values included).
dvec2 hlo_complex_exponential_minus_one(dvec2 z) {
  double x = z.x, y = z.y;
  if (y == 0.0LF) return dvec2(hlo_exponential_minus_one(x), y);
  double half_sin = hlo_sine(0.5LF * y);
  dvec2 cs = hlo_sincos_(y);
  precise double re = hlo_exponential_minus_one(x) * cs.x - 2.0LF * half_sin * half_sin;
  double s = cs.y;
  precise double im;
  if (x > HLO_C_EXP_LIMIT_D) {
    double h = hlo_exponential(0.5LF * x);
    im = (s * h) * h;
  } else {
    im = hlo_exponential(x) * s;
  }
  return dvec2(re, im);
}

dvec2 hlo_complex_log(dvec2 z) {
  double x = z.x, y = z.y;
  double angle = hlo_atan2(y, x);
  if (hlo_is_inf_(x) || hlo_is_inf_(y)) return dvec2(hlo_inf_f64_(0u), angle);
  if (hlo_c_isnan_(z)) return dvec2(hlo_nan_f64_(), hlo_nan_f64_());
  if (x == 0.0LF && y == 0.0LF) return dvec2(-hlo_inf_f64_(0u), angle);
  double ax = abs(x), ay = abs(y);
  double big = max(ax, ay), small = min(ax, ay);
  if (big >= 0.5LF && big <= 2.0LF && small < 1.0LF) {
    // log|z| = log1p(x^2 + y^2 - 1) / 2, the argument from exact squares: no cancellation
    // near |z| = 1.LF
    dvec2 s = hlo_dd_add_(hlo_two_prod_(big, big), dvec2(-1.0LF, 0.0LF));
    s = hlo_dd_add_(s, hlo_two_prod_(small, small));
    return dvec2(0.5LF * hlo_log_plus_one(s.x + s.y), angle);
  }
  // log|z| = log(|z| 2^-k) + k ln2: |z| itself may overflow or be a denormal.
  int k;
  double r = hlo_c_abs_scaled_(z, k);
  dvec2 l = hlo_log_dd_(r, 0.0LF);
  return dvec2(hlo_dd_add_(l, hlo_dd_mul_d_(dvec2(HLO_LN2_HI_D, HLO_LN2_LO_D), double(k))).x, angle);
}

dvec2 hlo_complex_log_plus_one(dvec2 z) {
  double x = z.x, y = z.y;
  if (hlo_is_finite(x) && hlo_is_finite(y) && hlo_complex_abs(z) < 0.5LF) {
    // log|1 + z| = log1p(2x + x^2 + y^2) / 2.LF
    precise double t = x * (2.0LF + x) + y * y;
    return dvec2(0.5LF * hlo_log_plus_one(t), hlo_atan2(y, 1.0LF + x));
  }
  return hlo_complex_log(dvec2(1.0LF + x, y));
}

dvec2 hlo_complex_sqrt(dvec2 z) {
  double x = z.x, y = z.y;
  if (hlo_is_inf_(y)) return dvec2(hlo_inf_f64_(0u), y);
  if (hlo_is_nan_(x)) return dvec2(x, hlo_nan_f64_());
  if (hlo_is_inf_(x)) {
    if (x > 0.0LF) return dvec2(x, hlo_is_nan_(y) ? y : hlo_copysign_(0.0LF, y));
    return dvec2(hlo_is_nan_(y) ? y : 0.0LF, hlo_copysign_(hlo_inf_f64_(0u), y));
  }
  if (hlo_is_nan_(y)) return dvec2(y, y);
  if (x == 0.0LF && y == 0.0LF) return dvec2(0.0LF, y);
  // t = sqrt((|x| + |z|) / 2), scaled by an even power of two.
  int k = hlo_c_exponent_(x, y) & ~1;
  double sx = hlo_ldexp_(x, -k), sy = hlo_ldexp_(y, -k);
  double t = hlo_sqrt(0.5LF * (abs(sx) + hlo_complex_abs(dvec2(sx, sy))));
  double other = hlo_divide(abs(sy), 2.0LF * t);
  double t_scaled = hlo_ldexp_(t, k / 2), other_scaled = hlo_ldexp_(other, k / 2);
  if (x >= 0.0LF) return dvec2(t_scaled, hlo_copysign_(other_scaled, y));
  return dvec2(other_scaled, hlo_copysign_(t_scaled, y));
}

dvec2 hlo_complex_rsqrt(dvec2 z) {
  if (z.x == 0.0LF && z.y == 0.0LF) return dvec2(hlo_inf_f64_(0u), hlo_nan_f64_());  // 1 / (0 + 0i), Annex G
  return hlo_complex_divide(dvec2(1.0LF, 0.0LF), hlo_complex_sqrt(z));
}

// The principal cube root: |z|^(1/3) at a third of the angle (pow(z, 1/3) as std::complex).
dvec2 hlo_complex_cbrt(dvec2 z) {
  if (z.x == 0.0LF && z.y == 0.0LF) return z;
  if (z.y == 0.0LF && z.x > 0.0LF) return dvec2(hlo_cbrt(z.x), 0.0LF);
  if (hlo_c_isnan_(z)) return dvec2(hlo_nan_f64_());
  dvec2 cs = hlo_sincos_(hlo_atan2(z.y, z.x) * (1.0LF / 3.0LF));
  double r;
  if (hlo_is_inf_(z.x) || hlo_is_inf_(z.y)) {
    r = hlo_inf_f64_(0u);
  } else {
    // |z| = m 2^k, cbrt|z| = cbrt(m 2^(k mod 3)) 2^(k div 3): no overflow, no denormal |z|.
    int k;
    double m = hlo_c_abs_scaled_(z, k);
    int q = (k >= 0 ? k : k - 2) / 3;
    r = hlo_ldexp_(hlo_cbrt(hlo_ldexp_(m, k - 3 * q)), q);
  }
  return dvec2(r * cs.x, r * cs.y);
}

// (a cosh y, b sinh y) for finite y, without overflowing where the products are finite
// (through e^(|y|/2) squared), sinh accurate near 0 through expm1; a zero factor gives a zero.
dvec2 hlo_c_scaled_cosh_sinh_(double y, double a, double b) {
  double ay = abs(y);
  precise double sb = hlo_copysign_(1.0LF, y) * b;  // b sinh y = (b sign(y)) sinh|y|
  if (ay > HLO_C_EXP_LIMIT_D) {
    double h = hlo_exponential(0.5LF * ay);
    precise double re = a == 0.0LF ? a : (a * h) * (0.5LF * h);
    precise double im = b == 0.0LF ? sb : (sb * h) * (0.5LF * h);
    return dvec2(re, im);
  }
  double em = hlo_exponential_minus_one(ay);  // e^|y| - 1
  double e = em + 1.0LF;
  dvec2 q = hlo_divide2_(dvec2(em, 1.0LF), e);  // (e - 1) / e, 1 / e
  precise double sinh_a = 0.5LF * (em + q.x);  // (e - 1/e) / 2
  precise double cosh_a = 0.5LF * (e + q.y);
  precise double re = a * cosh_a;
  precise double im = sb * sinh_a;
  return dvec2(re, im);
}

// Annex G values of sinh, cosh and tanh at x + iy with a non-finite part (glibc's choices
// where the standard leaves a sign open). sin z = -i sinh(iz), cos z = cosh(iz),
// tan z = -i tanh(iz).
dvec2 hlo_c_sinh_special_(double x, double y) {
  if (hlo_is_inf_(x)) {
    if (y == 0.0LF) return dvec2(x, y);
    if (hlo_is_finite(y)) {
      // sinh(x + iy) = sinh x cos y + i cosh x sin y.
      dvec2 cs = hlo_sincos_(y);
      precise double sign_re = hlo_copysign_(1.0LF, x) * cs.x;
      return dvec2(hlo_copysign_(hlo_inf_f64_(0u), sign_re), hlo_copysign_(hlo_inf_f64_(0u), cs.y));
    }
    return dvec2(x, hlo_nan_f64_());
  }
  if (x == 0.0LF) return dvec2(x, hlo_nan_f64_());
  if (hlo_is_nan_(x) && y == 0.0LF) return dvec2(x, y);
  return dvec2(hlo_nan_f64_(), hlo_nan_f64_());
}
dvec2 hlo_c_cosh_special_(double x, double y) {
  if (hlo_is_inf_(x)) {
    if (y == 0.0LF) return dvec2(hlo_inf_f64_(0u), hlo_copysign_(0.0LF, x) * y);
    if (hlo_is_finite(y)) {
      dvec2 cs = hlo_sincos_(y);
      precise double sign_im = hlo_copysign_(1.0LF, x) * cs.y;
      return dvec2(hlo_copysign_(hlo_inf_f64_(0u), cs.x), hlo_copysign_(hlo_inf_f64_(0u), sign_im));
    }
    return dvec2(hlo_inf_f64_(0u), hlo_nan_f64_());
  }
  if (x == 0.0LF) return dvec2(hlo_nan_f64_(), 0.0LF);
  if (hlo_is_nan_(x) && y == 0.0LF) return dvec2(x, 0.0LF);
  return dvec2(hlo_nan_f64_(), hlo_nan_f64_());
}
// `cs_y` is (cos y, sin y) when y is finite: the zero's sign is sin 2y's, taken from sin y cos y
// as glibc does (and so without a second range reduction in the kernel).
dvec2 hlo_c_tanh_special_(double x, double y, dvec2 cs_y) {
  if (hlo_is_inf_(x)) {
    double im = hlo_is_finite(y) ? hlo_copysign_(0.0LF, cs_y.x * cs_y.y) : hlo_copysign_(0.0LF, y);
    return dvec2(hlo_copysign_(1.0LF, x), im);
  }
  if (x == 0.0LF) return dvec2(x, hlo_nan_f64_());
  if (hlo_is_nan_(x) && y == 0.0LF) return dvec2(x, y);
  return dvec2(hlo_nan_f64_(), hlo_nan_f64_());
}
bool hlo_c_finite_(dvec2 z) { return hlo_is_finite(z.x) && hlo_is_finite(z.y); }

// sin(x + iy) = sin x cosh y + i cos x sinh y.
dvec2 hlo_complex_sine(dvec2 z) {
  double x = z.x, y = z.y;
  if (!hlo_c_finite_(z)) {
    dvec2 s = hlo_c_sinh_special_(-y, x);
    return dvec2(s.y, -s.x);
  }
  dvec2 cs = hlo_sincos_(x);
  return hlo_c_scaled_cosh_sinh_(y, cs.y, cs.x);
}

// cos(x + iy) = cos x cosh y - i sin x sinh y.
dvec2 hlo_complex_cosine(dvec2 z) {
  double x = z.x, y = z.y;
  if (!hlo_c_finite_(z)) return hlo_c_cosh_special_(-y, x);
  dvec2 cs = hlo_sincos_(x);
  dvec2 r = hlo_c_scaled_cosh_sinh_(y, cs.x, cs.y);
  return dvec2(r.x, -r.y);
}

// tan(x + iy), Kahan's form: t = tan x, s = sinh y, b = 1 + t^2:
//   (t + i b s sqrt(1 + s^2)) / (1 + b s^2); for large |y|, (4 sin x cos x e^-2|y|, +-1).
dvec2 hlo_complex_tan(dvec2 z) {
  double x = z.x, y = z.y;
  dvec2 cs;
  double t = hlo_tan_sincos_(x, cs);  // one range reduction for every path below
  if (!hlo_c_finite_(z)) {
    dvec2 special = hlo_c_tanh_special_(-y, x, cs);
    return dvec2(special.y, -special.x);
  }
  if (abs(y) > HLO_C_TAN_CUTOFF_D) {
    double e = hlo_exponential(-2.0LF * abs(y));
    precise double re = 4.0LF * cs.y * cs.x * e;
    return dvec2(re, hlo_copysign_(1.0LF, y));
  }
  if (y == 0.0LF) return dvec2(t, y);
  dvec2 ch = hlo_c_scaled_cosh_sinh_(y, 1.0LF, 1.0LF);  // |y| <= the cutoff: no overflow
  double s = ch.y;
  precise double b = 1.0LF + t * t;
  precise double den = 1.0LF + b * s * s;
  precise double im_num = b * s * ch.x;
  return hlo_divide2_(dvec2(t, im_num), den);
}

// tanh z = -i tan(iz).
dvec2 hlo_complex_tanh(dvec2 z) {
  dvec2 t = hlo_complex_tan(dvec2(-z.y, z.x));
  return dvec2(t.y, -t.x);
}

dvec2 hlo_complex_power(dvec2 a, dvec2 b) {
  if (a.x == 0.0LF && a.y == 0.0LF && !hlo_c_isnan_(b)) {
    if (b.x == 0.0LF && b.y == 0.0LF) return dvec2(1.0LF, 0.0LF);
    if (b.x > 0.0LF) return dvec2(0.0LF);
  }
  // cpow(a, b) = cexp(b * clog(a)).
  return hlo_complex_exponential(hlo_complex_multiply(b, hlo_complex_log(a)));
}

dvec2 hlo_complex_logistic(dvec2 z) {
  // For Re z < -limit, e^-z dominates 1 and may overflow: 1 / (1 + e^-z) = e^z (1 - e^z + ...).
  if (z.x < -HLO_C_LOGISTIC_LIMIT_D && hlo_c_finite_(z)) return hlo_complex_exponential(z);
  dvec2 e = hlo_complex_exponential(dvec2(-1.0LF, -1.0LF) * z);
  return hlo_complex_divide(dvec2(1.0LF, 0.0LF), dvec2(1.0LF + e.x, e.y));
}

#endif  // HLO_COMPLEX_F64_GLSL
