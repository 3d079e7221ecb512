// complex<f32> and complex<f64> helpers (vec2 / dvec2 = real, imaginary) for generated shaders:
//
//   hlo_complex_multiply  hlo_complex_divide  hlo_complex_abs (returns the real type)
//   hlo_complex_sign  hlo_complex_exponential  hlo_complex_exponential_minus_one
//   hlo_complex_log  hlo_complex_log_plus_one  hlo_complex_sqrt  hlo_complex_rsqrt
//   hlo_complex_cbrt  hlo_complex_sine  hlo_complex_cosine  hlo_complex_tan  hlo_complex_tanh
//   hlo_complex_power  hlo_complex_logistic
//
// Semantics of the reference interpreter (src/interp), which follows std::complex and C99
// Annex G: multiplication and division recover infinities from NaN results the way
// __mulsc3/__divsc3 do; division scales the divisor by a power of two (Smith's algorithm with
// scaling, no overflow or underflow of intermediates) and divides with hlo_divide; |z| is a
// scaled hypot with a double-word sum of squares; exp/log/sqrt/trig keep the Annex G special
// values.
//
// Written once for both precisions: kernels include the instances hlo_complex_f32.glsl (on
// hlo_math_f32.glsl) and hlo_complex_f64.glsl (on hlo_math_f64.glsl), which include this file
// between hlo_precision_f32/f64.glsl and hlo_precision_end.glsl; the types, literals and names
// that differ are the macros those define. The algorithms are the same in both; only the
// limits set by the format's range differ (HLO_PER_PRECISION).
//
// Has no include guard: each instance includes it once, inside its own guard.
#ifndef HLO_PRECISION
#error hlo_complex.glsl is included through hlo_complex_f32.glsl or hlo_complex_f64.glsl
#endif

// Below -this, logistic(z) = e^z to the last bit (and e^-z may overflow).
const HLO_F HLO_FD(HLO_C_LOGISTIC_LIMIT) = HLO_PER_PRECISION(80.0, 700.0LF);
// Beyond this |y|, tan(x + iy) is (tiny, +-1) and its formula's squares would overflow.
const HLO_F HLO_FD(HLO_C_TAN_CUTOFF) = HLO_LIT(20.0);
// exp(x) overflows beyond this; cosh/sinh and exp(x) * cos(y) then go through exp(x / 2)^2.
const HLO_F HLO_FD(HLO_C_EXP_LIMIT) = HLO_PER_PRECISION(88.0, 709.0LF);

bool hlo_c_isnan_(HLO_F2 z) { return hlo_is_nan_(z.x) || hlo_is_nan_(z.y); }
HLO_F hlo_c_one_or_zero_(HLO_F v) {
  return hlo_copysign_(hlo_is_inf_(v) ? HLO_LIT(1.0) : HLO_LIT(0.0), v);
}
HLO_F hlo_c_zero_if_nan_(HLO_F v) { return hlo_is_nan_(v) ? hlo_copysign_(HLO_LIT(0.0), v) : v; }

HLO_F2 hlo_complex_multiply(HLO_F2 a, HLO_F2 b) {
  precise HLO_F ac = a.x * b.x;
  precise HLO_F bd = a.y * b.y;
  precise HLO_F ad = a.x * b.y;
  precise HLO_F bc = a.y * b.x;
  precise HLO_F x = ac - bd;
  precise HLO_F y = ad + bc;
  if (hlo_is_nan_(x) && hlo_is_nan_(y)) {
    // C99 Annex G.5.1: an infinite operand makes an infinite product.
    bool recalc = false;
    if (hlo_is_inf_(a.x) || hlo_is_inf_(a.y)) {
      a = HLO_F2(hlo_c_one_or_zero_(a.x), hlo_c_one_or_zero_(a.y));
      b = HLO_F2(hlo_c_zero_if_nan_(b.x), hlo_c_zero_if_nan_(b.y));
      recalc = true;
    }
    if (hlo_is_inf_(b.x) || hlo_is_inf_(b.y)) {
      b = HLO_F2(hlo_c_one_or_zero_(b.x), hlo_c_one_or_zero_(b.y));
      a = HLO_F2(hlo_c_zero_if_nan_(a.x), hlo_c_zero_if_nan_(a.y));
      recalc = true;
    }
    if (!recalc && (hlo_is_inf_(ac) || hlo_is_inf_(bd) || hlo_is_inf_(ad) || hlo_is_inf_(bc))) {
      a = HLO_F2(hlo_c_zero_if_nan_(a.x), hlo_c_zero_if_nan_(a.y));
      b = HLO_F2(hlo_c_zero_if_nan_(b.x), hlo_c_zero_if_nan_(b.y));
      recalc = true;
    }
    if (recalc) {
      precise HLO_F rx = a.x * b.x - a.y * b.y;
      precise HLO_F ry = a.x * b.y + a.y * b.x;
      x = HLO_INF_(0u) * rx;
      y = HLO_INF_(0u) * ry;
    }
  }
  return HLO_F2(x, y);
}

// The binary exponent of max(|c|, |d|) (finite, not both zero), for scaling.
int hlo_c_exponent_(HLO_F c, HLO_F d) { return hlo_ilogb_(max(abs(c), abs(d))); }

HLO_F2 hlo_complex_divide(HLO_F2 a, HLO_F2 b) {
  HLO_F c = b.x, d = b.y;
  bool b_finite = hlo_is_finite(c) && hlo_is_finite(d);
  bool b_zero = c == HLO_LIT(0.0) && d == HLO_LIT(0.0);
  int k = 0;
  if (b_finite && !b_zero) {
    // Scale the divisor's larger part to [1, 2) and the dividend's likewise (exact), so no
    // intermediate overflows or underflows; Smith's ordering avoids forming c^2 + d^2.
    k = hlo_c_exponent_(c, d);
    c = hlo_ldexp_(c, -k);
    d = hlo_ldexp_(d, -k);
    if (hlo_is_finite(a.x) && hlo_is_finite(a.y) && (a.x != HLO_LIT(0.0) || a.y != HLO_LIT(0.0))) {
      int ka = hlo_c_exponent_(a.x, a.y);
      a = HLO_F2(hlo_ldexp_(a.x, -ka), hlo_ldexp_(a.y, -ka));
      k -= ka;
    }
  }
  if (b_zero) {
    // a / (0 + 0i), Annex G: each part of a times an infinity with the sign of b's real part.
    uint sc = hlo_sign_bit_(b.x);
    if (hlo_c_isnan_(a)) return HLO_F2(HLO_NAN_());
    return HLO_F2(a.x == HLO_LIT(0.0) ? HLO_NAN_() : HLO_INF_(hlo_sign_bit_(a.x) ^ sc),
                a.y == HLO_LIT(0.0) ? HLO_NAN_() : HLO_INF_(hlo_sign_bit_(a.y) ^ sc));
  }
  // `precise` here and below: zero signs and NaNs must survive the compiler (0 - x is not -x).
  // One inlined copy of each division: the operands are chosen, not the calls.
  bool c_major = abs(c) >= abs(d);
  precise HLO_F r = hlo_divide(c_major ? d : c, c_major ? c : d);
  precise HLO_F den, nx, ny;
  if (c_major) {
    den = c + d * r;
    nx = a.x + a.y * r;
    ny = a.y - a.x * r;
  } else {
    den = c * r + d;
    nx = a.x * r + a.y;
    ny = a.y * r - a.x;
  }
  HLO_F2 q = hlo_divide2_(HLO_F2(nx, ny), den);
  precise HLO_F x = q.x, y = q.y;
  x = hlo_ldexp_(x, -k);
  y = hlo_ldexp_(y, -k);
  if (hlo_is_nan_(x) && hlo_is_nan_(y)) {
    // C99 Annex G.5.1 recovery.
    if (b_zero && (!hlo_is_nan_(a.x) || !hlo_is_nan_(a.y))) {
      precise HLO_F inf = hlo_copysign_(HLO_INF_(0u), b.x);
      x = inf * a.x;
      y = inf * a.y;
    } else if ((hlo_is_inf_(a.x) || hlo_is_inf_(a.y)) && b_finite) {
      HLO_F2 u = HLO_F2(hlo_c_one_or_zero_(a.x), hlo_c_one_or_zero_(a.y));
      x = HLO_INF_(0u) * (u.x * b.x + u.y * b.y);
      y = HLO_INF_(0u) * (u.y * b.x - u.x * b.y);
    } else if ((hlo_is_inf_(b.x) || hlo_is_inf_(b.y)) && hlo_is_finite(a.x) && hlo_is_finite(a.y)) {
      HLO_F2 v = HLO_F2(hlo_c_one_or_zero_(b.x), hlo_c_one_or_zero_(b.y));
      x = HLO_LIT(0.0) * (a.x * v.x + a.y * v.y);
      y = HLO_LIT(0.0) * (a.y * v.x - a.x * v.y);
    }
  }
  return HLO_F2(x, y);
}

// hypot(x, y) * 2^-k for finite z != 0, with k = the exponent of the larger part: the sum of
// squares as a double-float (no overflow or underflow), its square root corrected to first
// order.
HLO_F hlo_c_abs_scaled_(HLO_F2 z, out int k) {
  k = hlo_c_exponent_(z.x, z.y);
  HLO_F sx = hlo_ldexp_(abs(z.x), -k), sy = hlo_ldexp_(abs(z.y), -k);
  HLO_F2 s = HLO_DW_ADD_(hlo_two_prod_(sx, sx), hlo_two_prod_(sy, sy));
  HLO_F r = hlo_sqrt(s.x);
  HLO_F2 rr = hlo_two_prod_(r, r);
  precise HLO_F corrected = r + (((s.x - rr.x) - rr.y) + s.y) / (HLO_LIT(2.0) * r);
  return corrected;
}

// hypot(x, y) without overflow or underflow; infinity wins over NaN.
HLO_F hlo_complex_abs(HLO_F2 z) {
  if (hlo_is_inf_(z.x) || hlo_is_inf_(z.y)) return HLO_INF_(0u);
  if (hlo_c_isnan_(z)) return HLO_NAN_();
  if (z.x == HLO_LIT(0.0) && z.y == HLO_LIT(0.0)) return HLO_LIT(0.0);
  int k;
  HLO_F r = hlo_c_abs_scaled_(z, k);
  return hlo_ldexp_(r, k);
}

HLO_F2 hlo_complex_sign(HLO_F2 z) {
  if (hlo_c_isnan_(z)) return HLO_F2(HLO_NAN_());
  if (z.x == HLO_LIT(0.0) && z.y == HLO_LIT(0.0)) return z;
  if (hlo_is_inf_(z.x) || hlo_is_inf_(z.y)) {
    // z / |z| with |z| = inf (the interpreter's definition): inf / inf is NaN, finite / inf 0.
    return HLO_F2(hlo_is_inf_(z.x) ? HLO_NAN_() : hlo_copysign_(HLO_LIT(0.0), z.x),
                hlo_is_inf_(z.y) ? HLO_NAN_() : hlo_copysign_(HLO_LIT(0.0), z.y));
  }
  int k = hlo_c_exponent_(z.x, z.y);
  HLO_F2 s = HLO_F2(hlo_ldexp_(z.x, -k), hlo_ldexp_(z.y, -k));
  HLO_F m = hlo_complex_abs(s);
  return hlo_divide2_(s, m);
}

// e^x * (c, s) without overflowing e^x where the product is finite.
HLO_F2 hlo_c_exp_scale_(HLO_F x, HLO_F c, HLO_F s) {
  if (x > HLO_FD(HLO_C_EXP_LIMIT)) {
    HLO_F h = hlo_exponential(HLO_LIT(0.5) * x);
    return HLO_F2((c * h) * h, (s * h) * h);
  }
  HLO_F e = hlo_exponential(x);
  return HLO_F2(c * e, s * e);
}

HLO_F2 hlo_complex_exponential(HLO_F2 z) {
  HLO_F x = z.x, y = z.y;
  if (y == HLO_LIT(0.0)) return HLO_F2(hlo_exponential(x), y);  // also NaN + i0 -> NaN + i0
  if (hlo_is_inf_(x)) {
    if (!hlo_is_finite(y)) {
      // exp(+inf + i inf/NaN) = +-inf + i NaN; exp(-inf + i inf/NaN) = +-0 +-i0.
      return x > HLO_LIT(0.0) ? HLO_F2(x, HLO_NAN_())
                              : HLO_F2(HLO_LIT(0.0), hlo_copysign_(HLO_LIT(0.0), y));
    }
    HLO_F2 cs = hlo_sincos_(y);
    return x > HLO_LIT(0.0) ? HLO_F2(hlo_copysign_(x, cs.x), hlo_copysign_(x, cs.y))
                   : HLO_F2(hlo_copysign_(HLO_LIT(0.0), cs.x), hlo_copysign_(HLO_LIT(0.0), cs.y));
  }
  if (hlo_is_nan_(x) || !hlo_is_finite(y)) return HLO_F2(HLO_NAN_());
  HLO_F2 cs = hlo_sincos_(y);
  return hlo_c_exp_scale_(x, cs.x, cs.y);
}

// exp(x + iy) - 1 = (expm1(x) cos y - 2 sin^2(y/2)) + i exp(x) sin y (the interpreter's form,
// special values included).
HLO_F2 hlo_complex_exponential_minus_one(HLO_F2 z) {
  HLO_F x = z.x, y = z.y;
  if (y == HLO_LIT(0.0)) return HLO_F2(hlo_exponential_minus_one(x), y);
  HLO_F half_sin = hlo_sine(HLO_LIT(0.5) * y);
  HLO_F2 cs = hlo_sincos_(y);
  precise HLO_F re = hlo_exponential_minus_one(x) * cs.x - HLO_LIT(2.0) * half_sin * half_sin;
  HLO_F s = cs.y;
  precise HLO_F im;
  if (x > HLO_FD(HLO_C_EXP_LIMIT)) {
    HLO_F h = hlo_exponential(HLO_LIT(0.5) * x);
    im = (s * h) * h;
  } else {
    im = hlo_exponential(x) * s;
  }
  return HLO_F2(re, im);
}

HLO_F2 hlo_complex_log(HLO_F2 z) {
  HLO_F x = z.x, y = z.y;
  HLO_F angle = hlo_atan2(y, x);
  if (hlo_is_inf_(x) || hlo_is_inf_(y)) return HLO_F2(HLO_INF_(0u), angle);
  if (hlo_c_isnan_(z)) return HLO_F2(HLO_NAN_(), HLO_NAN_());
  if (x == HLO_LIT(0.0) && y == HLO_LIT(0.0)) return HLO_F2(-HLO_INF_(0u), angle);
  HLO_F ax = abs(x), ay = abs(y);
  HLO_F big = max(ax, ay), small = min(ax, ay);
  if (big >= HLO_LIT(0.5) && big <= HLO_LIT(2.0) && small < HLO_LIT(1.0)) {
    // log|z| = log1p(x^2 + y^2 - 1) / 2, the argument from exact squares: no cancellation
    // near |z| = 1.
    HLO_F2 s = HLO_DW_ADD_(hlo_two_prod_(big, big), HLO_F2(-HLO_LIT(1.0), HLO_LIT(0.0)));
    s = HLO_DW_ADD_(s, hlo_two_prod_(small, small));
    return HLO_F2(HLO_LIT(0.5) * hlo_log_plus_one(s.x + s.y), angle);
  }
  // log|z| = log(|z| 2^-k) + k ln2: |z| itself may overflow or be a denormal.
  int k;
  HLO_F r = hlo_c_abs_scaled_(z, k);
  HLO_F2 l = HLO_LOG_DW_(r, HLO_LIT(0.0));
  return HLO_F2(
      HLO_DW_ADD_(l, HLO_DW_MUL_W_(HLO_F2(HLO_FD(HLO_LN2_HI), HLO_FD(HLO_LN2_LO)), HLO_F(k))).x,
      angle);
}

HLO_F2 hlo_complex_log_plus_one(HLO_F2 z) {
  HLO_F x = z.x, y = z.y;
  if (hlo_is_finite(x) && hlo_is_finite(y) && hlo_complex_abs(z) < HLO_LIT(0.5)) {
    // log|1 + z| = log1p(2x + x^2 + y^2) / 2.
    precise HLO_F t = x * (HLO_LIT(2.0) + x) + y * y;
    return HLO_F2(HLO_LIT(0.5) * hlo_log_plus_one(t), hlo_atan2(y, HLO_LIT(1.0) + x));
  }
  return hlo_complex_log(HLO_F2(HLO_LIT(1.0) + x, y));
}

HLO_F2 hlo_complex_sqrt(HLO_F2 z) {
  HLO_F x = z.x, y = z.y;
  if (hlo_is_inf_(y)) return HLO_F2(HLO_INF_(0u), y);
  if (hlo_is_nan_(x)) return HLO_F2(x, HLO_NAN_());
  if (hlo_is_inf_(x)) {
    if (x > HLO_LIT(0.0)) return HLO_F2(x, hlo_is_nan_(y) ? y : hlo_copysign_(HLO_LIT(0.0), y));
    return HLO_F2(hlo_is_nan_(y) ? y : HLO_LIT(0.0), hlo_copysign_(HLO_INF_(0u), y));
  }
  if (hlo_is_nan_(y)) return HLO_F2(y, y);
  if (x == HLO_LIT(0.0) && y == HLO_LIT(0.0)) return HLO_F2(HLO_LIT(0.0), y);
  // t = sqrt((|x| + |z|) / 2), scaled by an even power of two.
  int k = hlo_c_exponent_(x, y) & ~1;
  HLO_F sx = hlo_ldexp_(x, -k), sy = hlo_ldexp_(y, -k);
  HLO_F t = hlo_sqrt(HLO_LIT(0.5) * (abs(sx) + hlo_complex_abs(HLO_F2(sx, sy))));
  HLO_F other = hlo_divide(abs(sy), HLO_LIT(2.0) * t);
  HLO_F t_scaled = hlo_ldexp_(t, k / 2), other_scaled = hlo_ldexp_(other, k / 2);
  if (x >= HLO_LIT(0.0)) return HLO_F2(t_scaled, hlo_copysign_(other_scaled, y));
  return HLO_F2(other_scaled, hlo_copysign_(t_scaled, y));
}

HLO_F2 hlo_complex_rsqrt(HLO_F2 z) {
  // 1 / (0 + 0i), Annex G
  if (z.x == HLO_LIT(0.0) && z.y == HLO_LIT(0.0)) return HLO_F2(HLO_INF_(0u), HLO_NAN_());
  return hlo_complex_divide(HLO_F2(HLO_LIT(1.0), HLO_LIT(0.0)), hlo_complex_sqrt(z));
}

// The principal cube root: |z|^(1/3) at a third of the angle (pow(z, 1/3) as std::complex).
HLO_F2 hlo_complex_cbrt(HLO_F2 z) {
  if (z.x == HLO_LIT(0.0) && z.y == HLO_LIT(0.0)) return z;
  if (z.y == HLO_LIT(0.0) && z.x > HLO_LIT(0.0)) return HLO_F2(hlo_cbrt(z.x), HLO_LIT(0.0));
  if (hlo_c_isnan_(z)) return HLO_F2(HLO_NAN_());
  HLO_F2 cs = hlo_sincos_(hlo_atan2(z.y, z.x) * (HLO_LIT(1.0) / HLO_LIT(3.0)));
  HLO_F r;
  if (hlo_is_inf_(z.x) || hlo_is_inf_(z.y)) {
    r = HLO_INF_(0u);
  } else {
    // |z| = m 2^k, cbrt|z| = cbrt(m 2^(k mod 3)) 2^(k div 3): no overflow, no denormal |z|.
    int k;
    HLO_F m = hlo_c_abs_scaled_(z, k);
    int q = (k >= 0 ? k : k - 2) / 3;
    r = hlo_ldexp_(hlo_cbrt(hlo_ldexp_(m, k - 3 * q)), q);
  }
  return HLO_F2(r * cs.x, r * cs.y);
}

// (a cosh y, b sinh y) for finite y, without overflowing where the products are finite
// (through e^(|y|/2) squared), sinh accurate near 0 through expm1; a zero factor gives a zero.
HLO_F2 hlo_c_scaled_cosh_sinh_(HLO_F y, HLO_F a, HLO_F b) {
  HLO_F ay = abs(y);
  precise HLO_F sb = hlo_copysign_(HLO_LIT(1.0), y) * b;  // b sinh y = (b sign(y)) sinh|y|
  if (ay > HLO_FD(HLO_C_EXP_LIMIT)) {
    HLO_F h = hlo_exponential(HLO_LIT(0.5) * ay);
    precise HLO_F re = a == HLO_LIT(0.0) ? a : (a * h) * (HLO_LIT(0.5) * h);
    precise HLO_F im = b == HLO_LIT(0.0) ? sb : (sb * h) * (HLO_LIT(0.5) * h);
    return HLO_F2(re, im);
  }
  HLO_F em = hlo_exponential_minus_one(ay);  // e^|y| - 1
  HLO_F e = em + HLO_LIT(1.0);
  HLO_F2 q = hlo_divide2_(HLO_F2(em, HLO_LIT(1.0)), e);  // (e - 1) / e, 1 / e
  precise HLO_F sinh_a = HLO_LIT(0.5) * (em + q.x);  // (e - 1/e) / 2
  precise HLO_F cosh_a = HLO_LIT(0.5) * (e + q.y);
  precise HLO_F re = a * cosh_a;
  precise HLO_F im = sb * sinh_a;
  return HLO_F2(re, im);
}

// Annex G values of sinh, cosh and tanh at x + iy with a non-finite part (glibc's choices
// where the standard leaves a sign open). sin z = -i sinh(iz), cos z = cosh(iz),
// tan z = -i tanh(iz).
HLO_F2 hlo_c_sinh_special_(HLO_F x, HLO_F y) {
  if (hlo_is_inf_(x)) {
    if (y == HLO_LIT(0.0)) return HLO_F2(x, y);
    if (hlo_is_finite(y)) {
      // sinh(x + iy) = sinh x cos y + i cosh x sin y.
      HLO_F2 cs = hlo_sincos_(y);
      precise HLO_F sign_re = hlo_copysign_(HLO_LIT(1.0), x) * cs.x;
      return HLO_F2(hlo_copysign_(HLO_INF_(0u), sign_re), hlo_copysign_(HLO_INF_(0u), cs.y));
    }
    return HLO_F2(x, HLO_NAN_());
  }
  if (x == HLO_LIT(0.0)) return HLO_F2(x, HLO_NAN_());
  if (hlo_is_nan_(x) && y == HLO_LIT(0.0)) return HLO_F2(x, y);
  return HLO_F2(HLO_NAN_(), HLO_NAN_());
}
HLO_F2 hlo_c_cosh_special_(HLO_F x, HLO_F y) {
  if (hlo_is_inf_(x)) {
    if (y == HLO_LIT(0.0)) return HLO_F2(HLO_INF_(0u), hlo_copysign_(HLO_LIT(0.0), x) * y);
    if (hlo_is_finite(y)) {
      HLO_F2 cs = hlo_sincos_(y);
      precise HLO_F sign_im = hlo_copysign_(HLO_LIT(1.0), x) * cs.y;
      return HLO_F2(hlo_copysign_(HLO_INF_(0u), cs.x), hlo_copysign_(HLO_INF_(0u), sign_im));
    }
    return HLO_F2(HLO_INF_(0u), HLO_NAN_());
  }
  if (x == HLO_LIT(0.0)) return HLO_F2(HLO_NAN_(), HLO_LIT(0.0));
  if (hlo_is_nan_(x) && y == HLO_LIT(0.0)) return HLO_F2(x, HLO_LIT(0.0));
  return HLO_F2(HLO_NAN_(), HLO_NAN_());
}
// `cs_y` is (cos y, sin y) when y is finite: the zero's sign is sin 2y's, taken from sin y cos y
// as glibc does (and so without a second range reduction in the kernel).
HLO_F2 hlo_c_tanh_special_(HLO_F x, HLO_F y, HLO_F2 cs_y) {
  if (hlo_is_inf_(x)) {
    HLO_F im = hlo_is_finite(y) ? hlo_copysign_(HLO_LIT(0.0), cs_y.x * cs_y.y)
                                : hlo_copysign_(HLO_LIT(0.0), y);
    return HLO_F2(hlo_copysign_(HLO_LIT(1.0), x), im);
  }
  if (x == HLO_LIT(0.0)) return HLO_F2(x, HLO_NAN_());
  if (hlo_is_nan_(x) && y == HLO_LIT(0.0)) return HLO_F2(x, y);
  return HLO_F2(HLO_NAN_(), HLO_NAN_());
}
bool hlo_c_finite_(HLO_F2 z) { return hlo_is_finite(z.x) && hlo_is_finite(z.y); }

// sin(x + iy) = sin x cosh y + i cos x sinh y.
HLO_F2 hlo_complex_sine(HLO_F2 z) {
  HLO_F x = z.x, y = z.y;
  if (!hlo_c_finite_(z)) {
    HLO_F2 s = hlo_c_sinh_special_(-y, x);
    return HLO_F2(s.y, -s.x);
  }
  HLO_F2 cs = hlo_sincos_(x);
  return hlo_c_scaled_cosh_sinh_(y, cs.y, cs.x);
}

// cos(x + iy) = cos x cosh y - i sin x sinh y.
HLO_F2 hlo_complex_cosine(HLO_F2 z) {
  HLO_F x = z.x, y = z.y;
  if (!hlo_c_finite_(z)) return hlo_c_cosh_special_(-y, x);
  HLO_F2 cs = hlo_sincos_(x);
  HLO_F2 r = hlo_c_scaled_cosh_sinh_(y, cs.x, cs.y);
  return HLO_F2(r.x, -r.y);
}

// tan(x + iy), Kahan's form: t = tan x, s = sinh y, b = 1 + t^2:
//   (t + i b s sqrt(1 + s^2)) / (1 + b s^2); for large |y|, (4 sin x cos x e^-2|y|, +-1).
HLO_F2 hlo_complex_tan(HLO_F2 z) {
  HLO_F x = z.x, y = z.y;
  HLO_F2 cs;
  HLO_F t = hlo_tan_sincos_(x, cs);  // one range reduction for every path below
  if (!hlo_c_finite_(z)) {
    HLO_F2 special = hlo_c_tanh_special_(-y, x, cs);
    return HLO_F2(special.y, -special.x);
  }
  if (abs(y) > HLO_FD(HLO_C_TAN_CUTOFF)) {
    HLO_F e = hlo_exponential(-HLO_LIT(2.0) * abs(y));
    precise HLO_F re = HLO_LIT(4.0) * cs.y * cs.x * e;
    return HLO_F2(re, hlo_copysign_(HLO_LIT(1.0), y));
  }
  if (y == HLO_LIT(0.0)) return HLO_F2(t, y);
  // |y| <= the cutoff: no overflow
  HLO_F2 ch = hlo_c_scaled_cosh_sinh_(y, HLO_LIT(1.0), HLO_LIT(1.0));
  HLO_F s = ch.y;
  precise HLO_F b = HLO_LIT(1.0) + t * t;
  precise HLO_F den = HLO_LIT(1.0) + b * s * s;
  precise HLO_F im_num = b * s * ch.x;
  return hlo_divide2_(HLO_F2(t, im_num), den);
}

// tanh z = -i tan(iz).
HLO_F2 hlo_complex_tanh(HLO_F2 z) {
  HLO_F2 t = hlo_complex_tan(HLO_F2(-z.y, z.x));
  return HLO_F2(t.y, -t.x);
}

HLO_F2 hlo_complex_power(HLO_F2 a, HLO_F2 b) {
  if (a.x == HLO_LIT(0.0) && a.y == HLO_LIT(0.0) && !hlo_c_isnan_(b)) {
    if (b.x == HLO_LIT(0.0) && b.y == HLO_LIT(0.0)) return HLO_F2(HLO_LIT(1.0), HLO_LIT(0.0));
    if (b.x > HLO_LIT(0.0)) return HLO_F2(HLO_LIT(0.0));
  }
  // cpow(a, b) = cexp(b * clog(a)).
  return hlo_complex_exponential(hlo_complex_multiply(b, hlo_complex_log(a)));
}

HLO_F2 hlo_complex_logistic(HLO_F2 z) {
  // For Re z < -limit, e^-z dominates 1 and may overflow: 1 / (1 + e^-z) = e^z (1 - e^z + ...).
  if (z.x < -HLO_FD(HLO_C_LOGISTIC_LIMIT) && hlo_c_finite_(z)) return hlo_complex_exponential(z);
  HLO_F2 e = hlo_complex_exponential(HLO_F2(-HLO_LIT(1.0), -HLO_LIT(1.0)) * z);
  return hlo_complex_divide(HLO_F2(HLO_LIT(1.0), HLO_LIT(0.0)), HLO_F2(HLO_LIT(1.0) + e.x, e.y));
}
