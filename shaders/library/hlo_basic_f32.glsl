// Correctly rounded f32 arithmetic where Vulkan allows error, plus exact rounding and tests:
//
//   float hlo_divide(float x, float y)      IEEE division, correctly rounded (RNE)
//   float hlo_sqrt(float x)                 correctly rounded
//   float hlo_rsqrt(float x)                1/sqrt(x) within 1 ULP (almost always correctly rounded)
//   float hlo_remainder(float x, float y)   C fmod: exact, with the sign of x
//   float hlo_round_nearest_afz(float x)    ties away from zero
//   float hlo_round_nearest_even(float x)   ties to even
//   float hlo_trunc / hlo_floor / hlo_ceil  exact, on the bits (Vulkan gives the built-ins no
//                                           precision)
//   bool  hlo_is_finite(float x), hlo_is_nan_(float x), hlo_is_inf_(float x)
//
// Vulkan lets OpFDiv err by 2.5 ULP and sqrt inherit the error of 1/inversesqrt, and fma may be
// unfused. Division and square root therefore take a hardware estimate of the quotient (root)
// of the normalized significands and fix it with exact integer arithmetic: the remainder
// X * 2^24 - Q * Y (N - Q^2) is computed modulo 2^32, which is exact because the estimate is
// close, and decides the last bit, the rounding bit and the sticky bit; the result is packed
// with round-to-nearest-even at the right place, so denormal results round once and need no
// denormal support from the device. Special values are decided on the bit patterns.
//
// Also the error-free transformations the math files build on (TwoSum, Veltkamp/Dekker
// TwoProduct) and double-float arithmetic: hlo_double_word.glsl, written once for f32 and f64.
//
// Needs: GLSL 4.50 core only (32-bit types).
#ifndef HLO_BASIC_F32_GLSL
#define HLO_BASIC_F32_GLSL

#extension GL_EXT_control_flow_attributes : enable  // [[dont_unroll]]

// ---- bit-level helpers ----

bool hlo_is_nan_(float x) { return (floatBitsToUint(x) & 0x7FFFFFFFu) > 0x7F800000u; }
bool hlo_is_inf_(float x) { return (floatBitsToUint(x) & 0x7FFFFFFFu) == 0x7F800000u; }
bool hlo_is_finite(float x) { return (floatBitsToUint(x) & 0x7F800000u) != 0x7F800000u; }
// The quiet form of a NaN operand (IEEE: a NaN result is one of the NaN operands, quieted).
float hlo_quiet_(float x) { return uintBitsToFloat(floatBitsToUint(x) | 0x00400000u); }
float hlo_nan_() { return uintBitsToFloat(0x7FC00000u); }
uint hlo_sign_bit_(float x) { return floatBitsToUint(x) & 0x80000000u; }
float hlo_inf_(uint sign) { return uintBitsToFloat(sign | 0x7F800000u); }
// 2^n for n in [-126, 127], exactly.
float hlo_exp2i_(int n) { return uintBitsToFloat(uint(n + 127) << 23); }
float hlo_copysign_(float x, float s) {
  return uintBitsToFloat((floatBitsToUint(x) & 0x7FFFFFFFu) | (floatBitsToUint(s) & 0x80000000u));
}

// ---- rounding to integral values, on the bits ----
//
// Vulkan's precision tables give floor, ceil, trunc, round, roundEven and fract no precision
// (and lavapipe's double roundEven returns +0 for -0.3 on some hosts), so these work on the bit
// pattern alone: the integer part is the pattern with its fraction bits cleared, and one more
// unit in the last integer place (a carry may move into the exponent) rounds the magnitude up.
// The sign is kept (floor(-0.3) = -1, ceil(-0.3) = -0); NaNs come back quiet.
const int HLO_ROUND_TRUNC = 0;  // toward zero
const int HLO_ROUND_DOWN = 1;   // toward -infinity (floor)
const int HLO_ROUND_UP = 2;     // toward +infinity (ceil)
const int HLO_ROUND_EVEN = 3;   // to nearest, ties to even
const int HLO_ROUND_AWAY = 4;   // to nearest, ties away from zero

// Whether a magnitude with a non-zero fraction `inexact` and the fraction compared with one
// half (`cmp_half`: -1 below, 0 equal, 1 above) rounds up to the next integer in `mode`.
bool hlo_round_up_(int mode, bool negative, bool inexact, int cmp_half, bool odd) {
  if (mode == HLO_ROUND_DOWN) return negative && inexact;
  if (mode == HLO_ROUND_UP) return !negative && inexact;
  if (mode == HLO_ROUND_EVEN) return cmp_half > 0 || (cmp_half == 0 && odd);
  if (mode == HLO_ROUND_AWAY) return cmp_half >= 0;
  return false;
}

float hlo_round_integral_(float x, int mode) {
  uint b = floatBitsToUint(x);
  uint a = b & 0x7FFFFFFFu;
  uint sign = b & 0x80000000u;
  if (a >= 0x4B000000u) return a > 0x7F800000u ? hlo_quiet_(x) : x;  // |x| >= 2^23, inf, NaN
  bool negative = sign != 0u;
  uint r;
  if (a < 0x3F800000u) {  // |x| < 1: the integer part is 0, the fraction |x|
    int cmp_half = a > 0x3F000000u ? 1 : a == 0x3F000000u ? 0 : -1;
    r = hlo_round_up_(mode, negative, a != 0u, cmp_half, false) ? 0x3F800000u : 0u;
  } else {
    uint one = 1u << (150u - (a >> 23));  // the unit of the last integer place: 2^0
    uint rest = a & (one - 1u);
    uint halfway = one >> 1;
    r = a - rest;
    int cmp_half = rest > halfway ? 1 : rest == halfway ? 0 : -1;
    // For 1 <= |x| < 2 the integer's last bit is the exponent's, which is odd: the integer is 1.
    if (hlo_round_up_(mode, negative, rest != 0u, cmp_half, (r & one) != 0u)) r += one;
  }
  return uintBitsToFloat(sign | r);
}

float hlo_trunc(float x) { return hlo_round_integral_(x, HLO_ROUND_TRUNC); }
float hlo_floor(float x) { return hlo_round_integral_(x, HLO_ROUND_DOWN); }
float hlo_ceil(float x) { return hlo_round_integral_(x, HLO_ROUND_UP); }

// A finite non-zero |x| (bits a, sign clear) as X * 2^(ex - 23), X with bit 23 set.
void hlo_split_f32_(uint a, out uint X, out int ex) {
  uint E = a >> 23;
  uint M = a & 0x7FFFFFu;
  if (E == 0u) {
    int p = findMSB(M);
    X = M << (23 - p);
    ex = p - 149;
  } else {
    X = M | 0x800000u;
    ex = int(E) - 127;
  }
}

// floor(log2(|x|)) for finite non-zero x.
int hlo_ilogb_(float x) {
  uint X;
  int e;
  hlo_split_f32_(floatBitsToUint(x) & 0x7FFFFFFFu, X, e);
  return e;
}

// sig * 2^(e - 31) (bit 31 of sig set), plus `sticky` for a non-zero rest below sig, rounded
// to nearest even as an f32 with the given sign bit: denormal results round once, overflow
// gives infinity.
float hlo_pack_f32_(uint sign, int e, uint sig, bool sticky) {
  int E = e + 127;  // biased exponent, if normal
  if (E >= 255) return hlo_inf_(sign);
  int drop = E >= 1 ? 8 : 8 + (1 - E);  // bits of sig below the result's last place
  uint n;
  bool up;
  if (drop >= 32) {
    n = 0u;
    up = drop == 32 && (sig > 0x80000000u || (sig == 0x80000000u && sticky));
  } else {
    n = sig >> drop;
    uint rest = sig & ((1u << drop) - 1u);
    uint halfway = 1u << (drop - 1);
    up = rest > halfway || (rest == halfway && (sticky || (n & 1u) != 0u));
  }
  if (up) n += 1u;
  // A carry out of the significand moves to the next binade (or to infinity).
  uint bits = E >= 1 ? (uint(E - 1) << 23) + n : n;
  return uintBitsToFloat(sign | min(bits, 0x7F800000u));
}

// x * 2^n, rounded once (denormal results included; no reliance on the device's denormals).
float hlo_ldexp_(float x, int n) {
  uint b = floatBitsToUint(x);
  uint a = b & 0x7FFFFFFFu;
  if (a == 0u || a >= 0x7F800000u) return x;
  uint X;
  int ex;
  hlo_split_f32_(a, X, ex);
  return hlo_pack_f32_(b & 0x80000000u, ex + clamp(n, -400, 400), X << 8, false);
}

// ---- error-free transformations and double-word arithmetic ----

#include "hlo_precision_f32.glsl"
#include "hlo_double_word.glsl"
#include "hlo_precision_end.glsl"

// ---- division ----

// The correction step: X * 2^e / Y (X/Y in [1, 2), X < 2^25, Y < 2^24) from an estimate qs of
// X/Y within a few ULP, correctly rounded. Separate so tests can feed perturbed estimates.
float hlo_divide_refine_(uint sign, int e, uint X, uint Y, float qs) {
  uint Q = uint(qs * 16777216.0);  // Q ~ floor(X * 2^24 / Y) in [2^24, 2^25)
  int R = int((X << 24) - Q * Y);  // X * 2^24 - Q * Y; exact: |R| < 2^31 for a close Q
  int d = int(hlo_floor(float(R) / float(Y)));  // one integer Newton step for a rough estimate
  Q = uint(int(Q) + d);
  R -= d * int(Y);
  [[dont_unroll]] for (int i = 0; i < 4 && R < 0; ++i) {
    Q -= 1u;
    R += int(Y);
  }
  [[dont_unroll]] for (int i = 0; i < 4 && R >= int(Y); ++i) {
    Q += 1u;
    R -= int(Y);
  }
  return hlo_pack_f32_(sign, e, Q << 7, R != 0);  // Q * 2^(e - 24)
}

float hlo_divide(float x, float y) {
  uint bx = floatBitsToUint(x), by = floatBitsToUint(y);
  uint sign = (bx ^ by) & 0x80000000u;
  uint ax = bx & 0x7FFFFFFFu, ay = by & 0x7FFFFFFFu;
  if (ax > 0x7F800000u) return hlo_quiet_(x);
  if (ay > 0x7F800000u) return hlo_quiet_(y);
  if (ax == 0x7F800000u) return ay == 0x7F800000u ? hlo_nan_() : hlo_inf_(sign);
  if (ay == 0x7F800000u) return uintBitsToFloat(sign);
  if (ay == 0u) return ax == 0u ? hlo_nan_() : hlo_inf_(sign);
  if (ax == 0u) return uintBitsToFloat(sign);
  uint X, Y;
  int ex, ey;
  hlo_split_f32_(ax, X, ex);
  hlo_split_f32_(ay, Y, ey);
  int e = ex - ey;
  if (X < Y) {
    X <<= 1;
    e -= 1;
  }
  // Both operands are in [2^23, 2^25): the hardware division's guaranteed domain.
  return hlo_divide_refine_(sign, e, X, Y, float(X) / float(Y));
}

// x / d for both parts of x. Drivers inline every call; the loop makes the two divisions one copy
// of hlo_divide's code (complex division and the complex functions divide in pairs).
vec2 hlo_divide2_(vec2 x, float d) {
  vec2 q;
  [[dont_unroll]] for (int i = 0; i < 2; ++i) q[i] = hlo_divide(x[i], d);
  return q;
}

// ---- square root ----

// The correction step: sqrt(N) * 2^(e - 24) where N mod 2^32 = n_low, N in [2^48, 2^50), from
// an estimate qs of sqrt(N) * 2^-24 within a few ULP, correctly rounded.
float hlo_sqrt_refine_(uint n_low, int e, float qs) {
  uint Q = uint(qs * 16777216.0);  // ~ floor(sqrt(N)) in [2^24, 2^25)
  int R = int(n_low - Q * Q);      // N - Q^2; exact: |R| ~ 2 Q |error| < 2^31
  int d = int(hlo_floor(float(R) / float(2u * Q) + 0.5));  // an integer Newton step
  Q = uint(int(Q) + d);
  R = int(n_low - Q * Q);
  [[dont_unroll]] for (int i = 0; i < 4 && R < 0; ++i) {  // (Q - 1)^2 = Q^2 - 2Q + 1
    R += int(2u * Q) - 1;
    Q -= 1u;
  }
  [[dont_unroll]] for (int i = 0; i < 4 && R > int(2u * Q); ++i) {  // (Q + 1)^2 <= N
    R -= int(2u * Q) + 1;
    Q += 1u;
  }
  return hlo_pack_f32_(0u, e, Q << 7, R != 0);
}

float hlo_sqrt(float x) {
  uint b = floatBitsToUint(x);
  if ((b & 0x7FFFFFFFu) == 0u) return x;  // +-0
  if ((b & 0x7FFFFFFFu) > 0x7F800000u) return hlo_quiet_(x);
  if ((b >> 31) != 0u) return hlo_nan_();
  if (b == 0x7F800000u) return x;
  uint X;
  int ex;
  hlo_split_f32_(b, X, ex);
  // x = X * 2^(ex - 23) = N * 2^(ex - 23 - s), N = X * 2^s in [2^48, 2^50), exponent even.
  int s = ((ex - 23 - 25) & 1) == 0 ? 25 : 26;
  int h = (ex - 23 - s) / 2;
  float qs = sqrt(float(X) * hlo_exp2i_(s - 48));  // sqrt of a value in [1, 4)
  return hlo_sqrt_refine_(X << s, h + 24, qs);
}

// 1/sqrt(x): the root as a double-float (correctly rounded root plus its exact residual), its
// reciprocal refined by one exact-residual step, so only the final rounding errs.
float hlo_rsqrt(float x) {
  uint b = floatBitsToUint(x);
  if ((b & 0x7FFFFFFFu) == 0u) return hlo_inf_(b & 0x80000000u);  // 1/(+-0)
  if ((b & 0x7FFFFFFFu) > 0x7F800000u) return hlo_quiet_(x);
  if ((b >> 31) != 0u) return hlo_nan_();
  if (b == 0x7F800000u) return 0.0;
  uint X;
  int ex;
  hlo_split_f32_(b, X, ex);
  // x = xs * 2^(2h), xs in [1, 4).
  int k = ex - ((ex & 1) != 0 ? 1 : 0);
  float xs = uintBitsToFloat(((X & 0x7FFFFFu) | 0x3F800000u)) * ((ex & 1) != 0 ? 2.0 : 1.0);
  float s = hlo_sqrt(xs);  // in [1, 2)
  vec2 ss = hlo_two_prod_(s, s);
  precise float resid = (xs - ss.x) - ss.y;  // xs - s^2, exact
  precise float s_lo = resid / (2.0 * s);    // sqrt(xs) = s + s_lo to ~2^-46
  float q = hlo_divide(1.0, s);
  vec2 qs = hlo_two_prod_(q, s);
  precise float rho = ((1.0 - qs.x) - qs.y) - q * s_lo;  // 1 - q (s + s_lo)
  precise float r = q + q * rho;
  return r * hlo_exp2i_(-k / 2);
}

// ---- remainder ----

// C fmod: x - trunc(x / y) * y, exact; long division on the integer significands, 8 bits a step.
float hlo_remainder(float x, float y) {
  uint bx = floatBitsToUint(x), by = floatBitsToUint(y);
  uint ax = bx & 0x7FFFFFFFu, ay = by & 0x7FFFFFFFu;
  if (ax > 0x7F800000u) return hlo_quiet_(x);
  if (ay > 0x7F800000u) return hlo_quiet_(y);
  if (ax == 0x7F800000u || ay == 0u) return hlo_nan_();
  if (ax < ay) return x;  // includes x = +-0 and y = +-inf
  uint X, Y;
  int ex, ey;
  hlo_split_f32_(ax, X, ex);
  hlo_split_f32_(ay, Y, ey);
  uint M = X % Y;
  [[dont_unroll]] for (int d = ex - ey; d > 0;) {
    int k = min(d, 8);
    M = (M << k) % Y;
    d -= k;
  }
  uint sign = bx & 0x80000000u;
  if (M == 0u) return uintBitsToFloat(sign);
  int p = findMSB(M);
  return hlo_pack_f32_(sign, ey - 23 + p, M << (31 - p), false);  // M * 2^(ey - 23), exact
}

// ---- rounding to integers ----

float hlo_round_nearest_afz(float x) { return hlo_round_integral_(x, HLO_ROUND_AWAY); }
float hlo_round_nearest_even(float x) { return hlo_round_integral_(x, HLO_ROUND_EVEN); }

#endif  // HLO_BASIC_F32_GLSL
