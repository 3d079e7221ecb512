// Correctly rounded f64 arithmetic where Vulkan allows error, plus exact rounding and tests:
// the double overloads of hlo_basic_f32.glsl (hlo_divide, hlo_sqrt, hlo_rsqrt, hlo_remainder,
// hlo_round_nearest_afz, hlo_round_nearest_even, hlo_trunc, hlo_floor, hlo_ceil, hlo_is_finite), same algorithms with 53-bit
// significands held in uvec2 (hlo_u64.glsl): the remainder of the estimate is exact modulo
// 2^64, which needs no Int64 capability.
//
// Not written once with hlo_basic_f32.glsl (as hlo_complex.glsl is): f32 holds a significand in
// one uint and takes remainders modulo 2^32, f64 holds 53 bits in uvec2 pairs and takes them
// modulo 2^64, so the bit-level helpers, rounding, division, square root and remainder differ in
// every step. The part that is one algorithm in both, the error-free transformations and
// double-word arithmetic, is one source: hlo_double_word.glsl.
//
// Needs: the Float64 capability (shaderFloat64).
#ifndef HLO_BASIC_F64_GLSL
#define HLO_BASIC_F64_GLSL

#extension GL_EXT_control_flow_attributes : enable  // [[dont_unroll]]

#include "hlo_basic_f32.glsl"
#include "hlo_u64.glsl"

// ---- bit-level helpers ----

bool hlo_is_nan_(double x) {
  uvec2 w = unpackDouble2x32(x);
  uint hi = w.y & 0x7FFFFFFFu;
  return hi > 0x7FF00000u || (hi == 0x7FF00000u && w.x != 0u);
}
bool hlo_is_inf_(double x) {
  uvec2 w = unpackDouble2x32(x);
  return (w.y & 0x7FFFFFFFu) == 0x7FF00000u && w.x == 0u;
}
bool hlo_is_finite(double x) { return (unpackDouble2x32(x).y & 0x7FF00000u) != 0x7FF00000u; }
double hlo_quiet_(double x) {
  uvec2 w = unpackDouble2x32(x);
  return packDouble2x32(uvec2(w.x, w.y | 0x00080000u));
}
double hlo_nan_f64_() { return packDouble2x32(uvec2(0u, 0x7FF80000u)); }
double hlo_inf_f64_(uint sign) { return packDouble2x32(uvec2(0u, sign | 0x7FF00000u)); }
uint hlo_sign_bit_(double x) { return unpackDouble2x32(x).y & 0x80000000u; }
// 2^n for n in [-1022, 1023], exactly.
double hlo_exp2i_f64_(int n) { return packDouble2x32(uvec2(0u, uint(n + 1023) << 20)); }
double hlo_copysign_(double x, double s) {
  uvec2 w = unpackDouble2x32(x);
  return packDouble2x32(uvec2(w.x, (w.y & 0x7FFFFFFFu) | hlo_sign_bit_(s)));
}
double hlo_abs_bits_(double x) {
  uvec2 w = unpackDouble2x32(x);
  return packDouble2x32(uvec2(w.x, w.y & 0x7FFFFFFFu));
}
// An exact integer below 2^64 as a double.
double hlo_u64_to_double_(uvec2 a) { return double(a.y) * 4294967296.0 + double(a.x); }
// A non-negative integer-valued double below 2^64 as uvec2.
uvec2 hlo_double_to_u64_(double d) {
  uint hi = uint(d * (1.0 / 4294967296.0));
  return uvec2(uint(d - double(hi) * 4294967296.0), hi);
}

// ---- rounding to integral values, on the bits (see hlo_basic_f32.glsl) ----

double hlo_round_integral_(double x, int mode) {
  uvec2 w = unpackDouble2x32(x);
  uint hi = w.y & 0x7FFFFFFFu;
  uint sign = w.y & 0x80000000u;
  if (hi >= 0x43300000u) return hlo_is_nan_(x) ? hlo_quiet_(x) : x;  // |x| >= 2^52, inf, NaN
  bool negative = sign != 0u;
  uvec2 r;
  if (hi < 0x3FF00000u) {  // |x| < 1
    int cmp_half = hi > 0x3FE00000u || (hi == 0x3FE00000u && w.x != 0u) ? 1 : hi == 0x3FE00000u ? 0 : -1;
    r = hlo_round_up_(mode, negative, (hi | w.x) != 0u, cmp_half, false) ? uvec2(0u, 0x3FF00000u) : uvec2(0u);
  } else {
    uvec2 a = uvec2(w.x, hi);
    int frac_bits = 1075 - int(hi >> 20);  // 1..52
    uvec2 one = hlo_u64_shl(uvec2(1u, 0u), frac_bits);
    uvec2 rest = hlo_u64_low_bits(a, frac_bits);
    uvec2 halfway = hlo_u64_shr(one, 1);
    r = hlo_u64_sub(a, rest);
    int cmp_half = hlo_u64_lt(halfway, rest) ? 1 : rest == halfway ? 0 : -1;
    bool odd = ((r.x & one.x) | (r.y & one.y)) != 0u;
    if (hlo_round_up_(mode, negative, !hlo_u64_is_zero(rest), cmp_half, odd)) r = hlo_u64_add(r, one);
  }
  return packDouble2x32(uvec2(r.x, r.y | sign));
}

double hlo_trunc(double x) { return hlo_round_integral_(x, HLO_ROUND_TRUNC); }
double hlo_floor(double x) { return hlo_round_integral_(x, HLO_ROUND_DOWN); }
double hlo_ceil(double x) { return hlo_round_integral_(x, HLO_ROUND_UP); }

// A finite non-zero |x| (words w, sign ignored) as X * 2^(ex - 52), X with bit 52 set.
void hlo_split_f64_(uvec2 w, out uvec2 X, out int ex) {
  uint E = (w.y >> 20) & 0x7FFu;
  uvec2 M = uvec2(w.x, w.y & 0xFFFFFu);
  if (E == 0u) {
    int p = hlo_u64_msb(M);
    X = hlo_u64_shl(M, 52 - p);
    ex = p - 1074;
  } else {
    X = uvec2(M.x, M.y | 0x100000u);
    ex = int(E) - 1023;
  }
}

int hlo_ilogb_(double x) {
  uvec2 X;
  int e;
  hlo_split_f64_(unpackDouble2x32(x), X, e);
  return e;
}

// sig * 2^(e - 63) (bit 63 set) plus a sticky rest, rounded to nearest even as an f64.
double hlo_pack_f64_(uint sign, int e, uvec2 sig, bool sticky) {
  int E = e + 1023;
  if (E >= 2047) return hlo_inf_f64_(sign);
  int drop = E >= 1 ? 11 : 11 + (1 - E);
  uvec2 n;
  bool up;
  if (drop >= 64) {
    n = uvec2(0u);
    up = drop == 64 && (hlo_u64_lt(uvec2(0u, 0x80000000u), sig) ||
                        (sig == uvec2(0u, 0x80000000u) && sticky));
  } else {
    n = hlo_u64_shr(sig, drop);
    uvec2 rest = hlo_u64_low_bits(sig, drop);
    uvec2 halfway = hlo_u64_shl(uvec2(1u, 0u), drop - 1);
    up = hlo_u64_lt(halfway, rest) || (rest == halfway && (sticky || (n.x & 1u) != 0u));
  }
  if (up) n = hlo_u64_add(n, uvec2(1u, 0u));
  uvec2 bits = E >= 1 ? hlo_u64_add(n, uvec2(0u, uint(E - 1) << 20)) : n;
  if (bits.y >= 0x7FF00000u) bits = uvec2(0u, 0x7FF00000u);
  return packDouble2x32(uvec2(bits.x, bits.y | sign));
}

// x * 2^n, rounded once.
double hlo_ldexp_(double x, int n) {
  uvec2 w = unpackDouble2x32(x);
  if ((w.y & 0x7FF00000u) == 0x7FF00000u || ((w.y & 0x7FFFFFFFu) | w.x) == 0u) return x;
  uvec2 X;
  int ex;
  hlo_split_f64_(w, X, ex);
  return hlo_pack_f64_(w.y & 0x80000000u, ex + clamp(n, -3000, 3000), hlo_u64_shl(X, 11), false);
}

// ---- error-free transformations and double-word arithmetic ----

#include "hlo_precision_f64.glsl"
#include "hlo_double_word.glsl"
#include "hlo_precision_end.glsl"

// ---- division ----

// X * 2^e / Y (X/Y in [1, 2), X < 2^54 with bit 0 clear, Y < 2^53) from an estimate qs of X/Y
// within a few ULP, correctly rounded.
double hlo_divide_refine_(uint sign, int e, uvec2 X, uvec2 Y, double qs) {
  uvec2 Q = hlo_double_to_u64_(qs * 9007199254740992.0);  // ~ floor(X * 2^53 / Y)
  uvec2 R = hlo_u64_sub(hlo_u64_shl(X, 53), hlo_u64_mul_lo(Q, Y));  // exact modulo 2^64
  [[dont_unroll]] for (int i = 0; i < 16; ++i) {
    if (hlo_u64_is_negative(R)) {
      Q = hlo_u64_sub(Q, uvec2(1u, 0u));
      R = hlo_u64_add(R, Y);
    } else if (!hlo_u64_lt(R, Y)) {
      Q = hlo_u64_add(Q, uvec2(1u, 0u));
      R = hlo_u64_sub(R, Y);
    } else {
      break;  // 0 <= R < Y: Q is the floor
    }
  }
  return hlo_pack_f64_(sign, e, hlo_u64_shl(Q, 10), !hlo_u64_is_zero(R));  // Q * 2^(e - 53)
}

double hlo_divide(double x, double y) {
  uvec2 wx = unpackDouble2x32(x), wy = unpackDouble2x32(y);
  uint sign = (wx.y ^ wy.y) & 0x80000000u;
  if (hlo_is_nan_(x)) return hlo_quiet_(x);
  if (hlo_is_nan_(y)) return hlo_quiet_(y);
  bool x_inf = hlo_is_inf_(x), y_inf = hlo_is_inf_(y);
  bool x_zero = ((wx.y & 0x7FFFFFFFu) | wx.x) == 0u, y_zero = ((wy.y & 0x7FFFFFFFu) | wy.x) == 0u;
  if (x_inf) return y_inf ? hlo_nan_f64_() : hlo_inf_f64_(sign);
  if (y_inf) return packDouble2x32(uvec2(0u, sign));
  if (y_zero) return x_zero ? hlo_nan_f64_() : hlo_inf_f64_(sign);
  if (x_zero) return packDouble2x32(uvec2(0u, sign));
  uvec2 X, Y;
  int ex, ey;
  hlo_split_f64_(wx, X, ex);
  hlo_split_f64_(wy, Y, ey);
  int e = ex - ey;
  if (hlo_u64_lt(X, Y)) {
    X = hlo_u64_shl(X, 1);
    e -= 1;
  }
  return hlo_divide_refine_(sign, e, X, Y, hlo_u64_to_double_(X) / hlo_u64_to_double_(Y));
}

// As the f32 overload: both divisions through one copy of hlo_divide's code.
dvec2 hlo_divide2_(dvec2 x, double d) {
  dvec2 q;
  [[dont_unroll]] for (int i = 0; i < 2; ++i) q[i] = hlo_divide(x[i], d);
  return q;
}

// ---- square root ----

// sqrt(N) * 2^(e - 53), N = X * 2^s in [2^106, 2^108), from an estimate qs of sqrt(N) * 2^-53.
double hlo_sqrt_refine_(uvec2 X, int s, int e, double qs) {
  uvec2 N = hlo_u64_shl(X, s);  // N modulo 2^64
  uvec2 Q = hlo_double_to_u64_(qs * 9007199254740992.0);
  uvec2 R = hlo_u64_sub(N, hlo_u64_mul_lo(Q, Q));
  [[dont_unroll]] for (int i = 0; i < 16; ++i) {
    uvec2 two_q = hlo_u64_shl(Q, 1);
    if (hlo_u64_is_negative(R)) {  // (Q - 1)^2 = Q^2 - 2Q + 1
      R = hlo_u64_sub(hlo_u64_add(R, two_q), uvec2(1u, 0u));
      Q = hlo_u64_sub(Q, uvec2(1u, 0u));
    } else if (hlo_u64_lt(two_q, R)) {  // (Q + 1)^2 <= N
      R = hlo_u64_sub(R, hlo_u64_add(two_q, uvec2(1u, 0u)));
      Q = hlo_u64_add(Q, uvec2(1u, 0u));
    } else {
      break;
    }
  }
  return hlo_pack_f64_(0u, e, hlo_u64_shl(Q, 10), !hlo_u64_is_zero(R));
}

double hlo_sqrt(double x) {
  uvec2 w = unpackDouble2x32(x);
  if (((w.y & 0x7FFFFFFFu) | w.x) == 0u) return x;
  if (hlo_is_nan_(x)) return hlo_quiet_(x);
  if ((w.y >> 31) != 0u) return hlo_nan_f64_();
  if (hlo_is_inf_(x)) return x;
  uvec2 X;
  int ex;
  hlo_split_f64_(w, X, ex);
  // x = X * 2^(ex - 52) = N * 2^(ex - 52 - s), N = X * 2^s in [2^106, 2^108), exponent even.
  int s = ((ex - 52 - 54) & 1) == 0 ? 54 : 55;
  int h = (ex - 52 - s) / 2;
  double qs = sqrt(hlo_u64_to_double_(X) * hlo_exp2i_f64_(s - 106));  // of a value in [1, 4)
  return hlo_sqrt_refine_(X, s, h + 53, qs);
}

double hlo_rsqrt(double x) {
  uvec2 w = unpackDouble2x32(x);
  if (((w.y & 0x7FFFFFFFu) | w.x) == 0u) return hlo_inf_f64_(w.y & 0x80000000u);
  if (hlo_is_nan_(x)) return hlo_quiet_(x);
  if ((w.y >> 31) != 0u) return hlo_nan_f64_();
  if (hlo_is_inf_(x)) return 0.0LF;
  uvec2 X;
  int ex;
  hlo_split_f64_(w, X, ex);
  int k = ex - ((ex & 1) != 0 ? 1 : 0);
  double xs = hlo_u64_to_double_(X) * hlo_exp2i_f64_((ex & 1) != 0 ? -51 : -52);  // in [1, 4)
  double s = hlo_sqrt(xs);
  dvec2 ss = hlo_two_prod_(s, s);
  precise double resid = (xs - ss.x) - ss.y;
  precise double s_lo = resid / (2.0LF * s);
  double q = hlo_divide(1.0LF, s);
  dvec2 qs = hlo_two_prod_(q, s);
  precise double rho = ((1.0LF - qs.x) - qs.y) - q * s_lo;
  precise double r = q + q * rho;
  return r * hlo_exp2i_f64_(-k / 2);
}

// ---- remainder ----

// C fmod, exact: long division on the integer significands, up to 40 quotient bits a step (the
// step's quotient estimated in double, its remainder exact modulo 2^64, then fixed up).
double hlo_remainder(double x, double y) {
  uvec2 wx = unpackDouble2x32(x), wy = unpackDouble2x32(y);
  if (hlo_is_nan_(x)) return hlo_quiet_(x);
  if (hlo_is_nan_(y)) return hlo_quiet_(y);
  if (hlo_is_inf_(x) || ((wy.y & 0x7FFFFFFFu) | wy.x) == 0u) return hlo_nan_f64_();
  // |x| < |y| on the bit patterns (includes x = +-0 and y = +-inf).
  if (hlo_u64_lt(uvec2(wx.x, wx.y & 0x7FFFFFFFu), uvec2(wy.x, wy.y & 0x7FFFFFFFu))) return x;
  uvec2 X, Y;
  int ex, ey;
  hlo_split_f64_(wx, X, ex);
  hlo_split_f64_(wy, Y, ey);
  uvec2 M = hlo_u64_lt(X, Y) ? X : hlo_u64_sub(X, Y);
  double yd = hlo_u64_to_double_(Y);
  [[dont_unroll]] for (int d = ex - ey; d > 0;) {
    int k = min(d, 40);
    double q = hlo_floor(hlo_u64_to_double_(M) * hlo_exp2i_f64_(k) / yd);  // within 1 of the truth
    M = hlo_u64_sub(hlo_u64_shl(M, k), hlo_u64_mul_lo(hlo_double_to_u64_(q), Y));
    [[dont_unroll]] for (int i = 0; i < 2; ++i) {
      if (hlo_u64_is_negative(M)) M = hlo_u64_add(M, Y);
      if (!hlo_u64_lt(M, Y)) M = hlo_u64_sub(M, Y);
    }
    d -= k;
  }
  uint sign = wx.y & 0x80000000u;
  if (hlo_u64_is_zero(M)) return packDouble2x32(uvec2(0u, sign));
  int p = hlo_u64_msb(M);
  return hlo_pack_f64_(sign, ey - 52 + p, hlo_u64_shl(M, 63 - p), false);
}

// ---- rounding to integers ----

double hlo_round_nearest_afz(double x) { return hlo_round_integral_(x, HLO_ROUND_AWAY); }
double hlo_round_nearest_even(double x) { return hlo_round_integral_(x, HLO_ROUND_EVEN); }

#endif  // HLO_BASIC_F64_GLSL
