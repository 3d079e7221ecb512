// f64 trigonometry (part of hlo_math_f64.glsl): the double overloads of hlo_sine, hlo_cosine,
// hlo_tan, hlo_atan2; the algorithms of hlo_trig_f32.glsl with double-double words:
//   |x| <= pi/4:           r = x.
//   |x| < 2^20 pi/2:       Cody-Waite, pi/2 in three 33-bit parts (k * part exact for
//                          k < 2^20) and a rounded fourth: 152 bits of pi/2.
//   larger:                Payne-Hanek: the 53-bit significand times 224 bits of 2/pi from the
//                          right offset (exact integer arithmetic), 192 bits of the fraction
//                          normalized into a double-double, times pi/2.
//
// Not written once with hlo_trig_f32.glsl: both reductions differ (pi/2 in three 33-bit parts
// and a fourth against four 12-bit parts and a fifth; 224 bits of 2/pi and a normalizing loop
// against 128 bits), and so do the kernels' polynomials.
//
// Needs: the Float64 capability (shaderFloat64).
#ifndef HLO_TRIG_F64_GLSL
#define HLO_TRIG_F64_GLSL

#extension GL_EXT_control_flow_attributes : enable  // [[dont_unroll]]

#include "hlo_basic_f64.glsl"
#include "hlo_exp_log_f64.glsl"  // hlo_dd_divide_

const double HLO_TWO_OVER_PI_D = 0.6366197723675814LF;
const double HLO_PIO2_CW1_D = 1.5707963267341256LF;
const double HLO_PIO2_CW2_D = 6.077100506303966e-11LF;
const double HLO_PIO2_CW3_D = 2.0222662487111665e-21LF;
const double HLO_PIO2_CW4_D = 8.4784276603689e-32LF;
const double HLO_PIO2_HI_D = 1.5707963267948966LF;
const double HLO_PIO2_LO_D = 6.123233995736766e-17LF;
const double HLO_PI_HI_D = 3.141592653589793LF;
const double HLO_PI_LO_D = 1.2246467991473532e-16LF;
const double HLO_PIO4_HI_D = 0.7853981633974483LF;
const double HLO_PIO4_LO_D = 3.061616997868383e-17LF;
const double HLO_ATAN_HALF_HI_D = 0.4636476090008061LF;
const double HLO_ATAN_HALF_LO_D = 2.2698777452961687e-17LF;

// 2/pi after the binary point, 32 bits a word: 1280 bits, enough for every f64 exponent.
const uint HLO_TWO_OVER_PI_F64[40] = uint[40](
  0xA2F9836Eu, 0x4E441529u, 0xFC2757D1u, 0xF534DDC0u, 0xDB629599u, 0x3C439041u,
  0xFE5163ABu, 0xDEBBC561u, 0xB7246E3Au, 0x424DD2E0u, 0x06492EEAu, 0x09D1921Cu,
  0xFE1DEB1Cu, 0xB129A73Eu, 0xE88235F5u, 0x2EBB4484u, 0xE99C7026u, 0xB45F7E41u,
  0x3991D639u, 0x835339F4u, 0x9C845F8Bu, 0xBDF9283Bu, 0x1FF897FFu, 0xDE05980Fu,
  0xEF2F118Bu, 0x5A0A6D1Fu, 0x6D367ECFu, 0x27CB09B7u, 0x4F463F66u, 0x9E5FEA2Du,
  0x7527BAC7u, 0xEBE5F17Bu, 0x3D0739F7u, 0x8A5292EAu, 0x6BFB5FB1u, 0x1F8D5D08u,
  0x56033046u, 0xFC7B6BABu, 0xF0CFBC20u, 0x9AF4361Du);

uint hlo_two_over_pi_word_d_(int i) { return (i < 0 || i >= 40) ? 0u : HLO_TWO_OVER_PI_F64[i]; }

// Bits [pos, pos + 32) of the 288-bit number P (P[0] lowest); bits outside read as zeros.
uint hlo_bits288_(uint P[9], int pos) {
  int wi = pos >> 5;
  int off = pos & 31;
  uint lo = (wi >= 0 && wi <= 8) ? P[wi] : 0u;
  uint hi = (wi + 1 >= 0 && wi + 1 <= 8) ? P[wi + 1] : 0u;
  return off == 0 ? lo : (lo >> off) | (hi << (32 - off));
}

// Payne-Hanek for finite |x| >= 2^20 (words w): n mod 4 and r = x - n pi/2.
dvec2 hlo_reduce_large_d_(uvec2 w, out int n) {
  uvec2 X;
  int ex;
  hlo_split_f64_(w, X, ex);
  // As the f32 version: bits p <= ex - 55 of 2/pi make multiples of 4. Seven words (224 bits)
  // keep the truncation error below 2^-120 in the fraction, far below the smallest |r|.
  int p0 = ex - 54;
  int w0 = p0 >> 5;
  int o = p0 & 31;
  uint W[7];
  [[dont_unroll]] for (int i = 0; i < 7; ++i) W[i] = hlo_two_over_pi_word_d_(w0 + 6 - i);  // W[0] lowest
  uint P[9];
  [[dont_unroll]] for (int i = 0; i < 9; ++i) P[i] = 0u;
  [[dont_unroll]] for (int i = 0; i < 2; ++i) {
    uint xi = i == 0 ? X.x : X.y;
    uint carry = 0u;
    [[dont_unroll]] for (int j = 0; j < 7; ++j) {
      uint hi, lo, c1, c2;
      umulExtended(xi, W[j], hi, lo);
      uint sum = uaddCarry(P[i + j], lo, c1);
      sum = uaddCarry(sum, carry, c2);
      P[i + j] = sum;
      carry = hi + c1 + c2;  // no overflow: hi <= 2^32 - 2
    }
    P[i + 7] += carry;
  }
  // x * 2/pi = P * 2^-B (mod 4), B = 52 + 32 (w0 + 7) - ex = 222 - o.
  int B = 222 - o;
  n = int(hlo_bits288_(P, B) & 3u);
  uint F[6];
  [[dont_unroll]] for (int i = 0; i < 6; ++i) F[i] = hlo_bits288_(P, B - 32 * (i + 1));  // F[0] highest
  double sign = 1.0LF;
  if ((F[0] >> 31) != 0u) {  // fraction >= 1/2: n + 1, r = (fraction - 1) pi/2
    n = (n + 1) & 3;
    uint borrow = 0u;
    [[dont_unroll]] for (int i = 5; i >= 0; --i) {
      uint b1, b2;
      uint d = usubBorrow(0u, F[i], b1);
      F[i] = usubBorrow(d, borrow, b2);
      borrow = b1 | b2;
    }
    sign = -1.0LF;
  }
  // Normalize the 192-bit fraction: skip zero words, then shift the top bit to bit 31 of N0.
  int e = 0;
  [[dont_unroll]] for (int k = 0; k < 3 && F[0] == 0u; ++k) {
    [[dont_unroll]] for (int i = 0; i < 5; ++i) F[i] = F[i + 1];
    F[5] = 0u;
    e -= 32;
  }
  if (F[0] == 0u) return dvec2(0.0LF);
  int s = 31 - findMSB(F[0]);
  if (s > 0) {
    // Into a second array: lavapipe (Mesa 22.3) miscompiles this shift as an in-place loop
    // that is not unrolled.
    uint G[6];
    [[dont_unroll]] for (int i = 0; i < 5; ++i) G[i] = (F[i] << s) | (F[i + 1] >> (32 - s));
    G[5] = F[5] << s;
    F = G;
  }
  e -= s;  // fraction = (F0 F1 F2 F3 ...) * 2^(e - 128)
  double hi = (double(F[0]) * 2097152.0LF + double(F[1] >> 11)) * hlo_exp2i_f64_(e - 53);
  double lo = (double(F[1] & 0x7FFu) * 18446744073709551616.0LF + double(F[2]) * 4294967296.0LF +
               double(F[3])) * hlo_exp2i_f64_(e - 128);
  dvec2 f = hlo_fast_two_sum_(hi, lo);
  return sign * hlo_dd_mul_(f, dvec2(HLO_PIO2_HI_D, HLO_PIO2_LO_D));
}

dvec2 hlo_reduce_d_(double x, out int n) {
  if (x <= 0.7853981633974483LF) {
    n = 0;
    return dvec2(x, 0.0LF);
  }
  if (x < 1647099.3291652855LF) {  // 2^20 pi/2
    double k = hlo_floor(x * HLO_TWO_OVER_PI_D + 0.5LF);
    precise double r1 = x - k * HLO_PIO2_CW1_D;  // exact
    dvec2 a = hlo_two_sum_(r1, -k * HLO_PIO2_CW2_D);
    dvec2 b = hlo_two_sum_(a.x, -k * HLO_PIO2_CW3_D);
    precise double lo = (a.y + b.y) - k * HLO_PIO2_CW4_D;
    n = int(k) & 3;
    return hlo_fast_two_sum_(b.x, lo);
  }
  return hlo_reduce_large_d_(unpackDouble2x32(x), n);
}

dvec2 hlo_sin_kernel_d_(dvec2 r) {
  double z = r.x * r.x;
  double S = -0.16666666666666666LF + z * (0.008333333333333331LF + z * (-0.00019841269841265065LF +
             z * (2.7557319219339167e-06LF + z * (-2.5052106232447578e-08LF + z * (1.6058531618986147e-10LF +
             z * -7.586697117706918e-13LF)))));
  precise double tail = r.x * z * S + r.y * (1.0LF - 0.5LF * z);
  return hlo_fast_two_sum_(r.x, tail);
}

dvec2 hlo_cos_kernel_d_(dvec2 r) {
  dvec2 z = hlo_two_prod_(r.x, r.x);
  double C = 0.041666666666666664LF + z.x * (-0.0013888888888887398LF + z.x * (2.480158729876569e-05LF +
             z.x * (-2.7557317271729793e-07LF + z.x * (2.08761462684032e-09LF + z.x * -1.1382632425521717e-11LF))));
  precise double hz = 0.5LF * z.x;
  precise double w = 1.0LF - hz;
  precise double tail = (((1.0LF - w) - hz) - 0.5LF * z.y) + (z.x * z.x * C - r.x * r.y);
  return hlo_fast_two_sum_(w, tail);
}

double hlo_sine(double x) {
  if (!hlo_is_finite(x)) return hlo_is_nan_(x) ? hlo_quiet_(x) : hlo_nan_f64_();
  double a = hlo_abs_bits_(x);
  if (a < 7.450580596923828e-09LF) return x;  // 2^-27
  int n;
  dvec2 r = hlo_reduce_d_(a, n);
  dvec2 v = (n & 1) == 0 ? hlo_sin_kernel_d_(r) : hlo_cos_kernel_d_(r);
  double s = (n & 2) == 0 ? v.x : -v.x;
  return hlo_sign_bit_(x) != 0u ? -s : s;
}

double hlo_cosine(double x) {
  if (!hlo_is_finite(x)) return hlo_is_nan_(x) ? hlo_quiet_(x) : hlo_nan_f64_();
  double a = hlo_abs_bits_(x);
  if (a < 7.450580596923828e-09LF) return 1.0LF;
  int n;
  dvec2 r = hlo_reduce_d_(a, n);
  dvec2 v = (n & 1) == 0 ? hlo_cos_kernel_d_(r) : hlo_sin_kernel_d_(r);
  return ((n + 1) & 2) == 0 ? v.x : -v.x;
}

// As the f32 overload: tan x, and (cos x, sin x) in `cs`, from one range reduction.
double hlo_tan_sincos_(double x, out dvec2 cs) {
  if (!hlo_is_finite(x)) {
    cs = dvec2(hlo_is_nan_(x) ? hlo_quiet_(x) : hlo_nan_f64_());
    return cs.x;
  }
  double a = hlo_abs_bits_(x);
  if (a < 7.450580596923828e-09LF) {
    cs = dvec2(1.0LF, x);
    return x;
  }
  int n;
  dvec2 r = hlo_reduce_d_(a, n);
  dvec2 s = hlo_sin_kernel_d_(r), c = hlo_cos_kernel_d_(r);
  // One division inlined, not two: the operands are chosen instead.
  bool odd = (n & 1) != 0;
  double q = hlo_dd_divide_(odd ? c : s, odd ? s : c);
  double t = odd ? -q : q;
  dvec2 v = odd ? dvec2(-s.x, c.x) : dvec2(c.x, s.x);
  if ((n & 2) != 0) v = -v;
  bool negative = hlo_sign_bit_(x) != 0u;
  cs = dvec2(v.x, negative ? -v.y : v.y);
  return negative ? -t : t;
}

dvec2 hlo_sincos_(double x) {  // (cos x, sin x); the unused division is dead code
  dvec2 cs;
  hlo_tan_sincos_(x, cs);
  return cs;
}

double hlo_tan(double x) {
  dvec2 cs;  // dead code
  return hlo_tan_sincos_(x, cs);
}


dvec2 hlo_atan_dd_(dvec2 u) {
  dvec2 base = dvec2(0.0LF);
  dvec2 v = u;
  if (u.x >= 0.6875LF) {
    base = dvec2(HLO_PIO4_HI_D, HLO_PIO4_LO_D);
    dvec2 num = hlo_dd_add_(u, dvec2(-1.0LF, 0.0LF));
    dvec2 den = hlo_dd_add_(u, dvec2(1.0LF, 0.0LF));
    double q = hlo_dd_divide_(num, den);
    dvec2 p = hlo_two_prod_(q, den.x);
    precise double ql = (((num.x - p.x) - p.y) + num.y - q * den.y) / den.x;
    v = dvec2(q, ql);
  } else if (u.x >= 0.4375LF) {
    base = dvec2(HLO_ATAN_HALF_HI_D, HLO_ATAN_HALF_LO_D);
    dvec2 num = hlo_dd_add_(u, dvec2(-0.5LF, 0.0LF));
    dvec2 den = hlo_dd_add_(dvec2(1.0LF, 0.0LF), 0.5LF * u);
    double q = hlo_dd_divide_(num, den);
    dvec2 p = hlo_two_prod_(q, den.x);
    precise double ql = (((num.x - p.x) - p.y) + num.y - q * den.y) / den.x;
    v = dvec2(q, ql);
  }
  double z = v.x * v.x;
  double A = -0.3333333333333333LF + z * (0.1999999999999941LF + z * (-0.14285714285566806LF +
             z * (0.11111111096645038LF + z * (-0.09090908355602592LF + z * (0.07692285554889286LF +
             z * (-0.06666241923359964LF + z * (0.05876946456755061LF + z * (-0.05216679739313656LF +
             z * (0.04492259293193656LF + z * (-0.033128134256069586LF + z * 0.014773184616983806LF))))))))));
  precise double tail = v.x * z * A + v.y * (1.0LF - z);
  dvec2 t = hlo_fast_two_sum_(v.x, tail);
  return hlo_dd_add_(base, t);
}

double hlo_atan2(double y, double x) {
  if (hlo_is_nan_(x)) return hlo_quiet_(x);
  if (hlo_is_nan_(y)) return hlo_quiet_(y);
  bool x_negative = hlo_sign_bit_(x) != 0u;
  double ay = hlo_abs_bits_(y), ax = hlo_abs_bits_(x);
  double result;
  if (ay == 0.0LF) {
    result = x_negative ? HLO_PI_HI_D : 0.0LF;
  } else if (hlo_is_inf_(ay)) {
    result = hlo_is_inf_(ax) ? (x_negative ? 2.356194490192345LF : HLO_PIO4_HI_D) : HLO_PIO2_HI_D;
  } else if (ax == 0.0LF) {
    result = HLO_PIO2_HI_D;
  } else if (hlo_is_inf_(ax)) {
    result = x_negative ? HLO_PI_HI_D : 0.0LF;
  } else {
    uvec2 X;
    int ex, ey;
    hlo_split_f64_(unpackDouble2x32(ax), X, ex);
    hlo_split_f64_(unpackDouble2x32(ay), X, ey);
    if (ey - ex > 120) {
      result = HLO_PIO2_HI_D;  // |x / y| < 2^-120
    } else {
      double sx = hlo_ldexp_(ax, -ex), sy = hlo_ldexp_(ay, -ex);
      bool swap = sy > sx;
      double num = swap ? sx : sy, den = swap ? sy : sx;
      double q = hlo_divide(num, den);
      dvec2 p = hlo_two_prod_(q, den);
      precise double ql = ((num - p.x) - p.y) / den;
      dvec2 t = q < 1.0e-150LF ? dvec2(q, 0.0LF) : hlo_atan_dd_(dvec2(q, ql));
      if (swap) t = hlo_dd_add_(dvec2(HLO_PIO2_HI_D, HLO_PIO2_LO_D), -t);
      if (x_negative) t = hlo_dd_add_(dvec2(HLO_PI_HI_D, HLO_PI_LO_D), -t);
      result = t.x;
    }
  }
  return hlo_copysign_(result, y);
}

#endif  // HLO_TRIG_F64_GLSL
