// f32 trigonometry (part of hlo_math_f32.glsl): hlo_sine, hlo_cosine, hlo_tan, hlo_atan2.
//
// Argument reduction x = n pi/2 + r, r as a double-float (hi + lo):
//   |x| <= pi/4:    r = x.
//   |x| < 6434:     Cody-Waite with pi/2 in five parts, four of 12 bits (k * part exact for
//                   k < 2^12) and a rounded fifth: 72 bits of pi/2; the partial differences are
//                   accumulated with TwoSum.
//   larger:         Payne-Hanek: the 24-bit significand times 128 bits of 2/pi from the right
//                   offset (exact integer arithmetic), the fraction's top 64 bits times pi/2.
// Kernels on |r| <= pi/4: sin r = r + r^3 S(r^2), cos r = 1 - r^2/2 + r^4 C(r^2) (near-minimax,
// tools/fit_coefficients.py), both returned as double-floats so tan = sin / cos is refined
// against the exact residual. atan2 follows fdlibm's ranges (atan of 1/2 and 1 as pivots) with
// the ratio itself carried as a double-float.
//
// Needs: GLSL 4.50 core only (32-bit types).
#ifndef HLO_TRIG_F32_GLSL
#define HLO_TRIG_F32_GLSL

#extension GL_EXT_control_flow_attributes : enable  // [[dont_unroll]]

#include "hlo_basic_f32.glsl"
#include "hlo_exp_log_f32.glsl"  // hlo_ff_divide_

const float HLO_TWO_OVER_PI_F = 0.636619772368;
const float HLO_PIO2_CW1_F = 1.57031250000;      // pi/2 in 12-bit parts, then the rest
const float HLO_PIO2_CW2_F = 0.000483751296997;
const float HLO_PIO2_CW3_F = 7.54953362048e-8;
const float HLO_PIO2_CW4_F = 2.56328291925e-12;
const float HLO_PIO2_CW5_F = 6.12323426293e-17;
const float HLO_PIO2_HI_F = 1.57079637051;       // double-float constants: HI + LO
const float HLO_PIO2_LO_F = -4.37113882867e-8;
const float HLO_PI_HI_F = 3.14159274101;
const float HLO_PI_LO_F = -8.74227765735e-8;
const float HLO_PIO4_HI_F = 0.785398185253;
const float HLO_PIO4_LO_F = -2.18556941434e-8;
const float HLO_ATAN_HALF_HI_F = 0.463647603989;
const float HLO_ATAN_HALF_LO_F = 5.01215868809e-9;

// 2/pi after the binary point, 32 bits a word (enough for any f32 exponent).
const uint HLO_TWO_OVER_PI_F32[8] = uint[8](
  0xA2F9836Eu, 0x4E441529u, 0xFC2757D1u, 0xF534DDC0u, 0xDB629599u, 0x3C439041u,
  0xFE5163ABu, 0xDEBBC561u);

// The fraction (a b c) * 2^-96 (a 96-bit fixed-point value in [0, 1)) as a double-float.
vec2 hlo_fixed96_to_ff_(uint a, uint b, uint c) {
  int e = 0;
  [[dont_unroll]] for (int i = 0; i < 2 && a == 0u; ++i) {
    a = b;
    b = c;
    c = 0u;
    e -= 32;
  }
  if (a == 0u) return vec2(0.0);
  int s = 31 - findMSB(a);
  if (s > 0) {
    a = (a << s) | (b >> (32 - s));
    b = (b << s) | (c >> (32 - s));
  }
  e -= s;  // value ~ (a * 2^32 + b) * 2^(e - 64), a with its top bit set
  float hi = float(a >> 8) * hlo_exp2i_(e - 24);
  float lo = float(((a & 0xFFu) << 16) | (b >> 16)) * hlo_exp2i_(e) * 3.5527136788e-15;  // 2^-48
  return hlo_fast_two_sum_(hi, lo);
}

uint hlo_two_over_pi_word_f_(int i) { return i < 0 ? 0u : HLO_TWO_OVER_PI_F32[i]; }

// Bits [pos, pos + 32) of the 160-bit number P (P[0] lowest); bits below 0 read as zeros.
uint hlo_bits160_(uint P[5], int pos) {
  int wi = pos >> 5;
  int off = pos & 31;
  uint lo = (wi >= 0 && wi <= 4) ? P[wi] : 0u;
  uint hi = (wi + 1 >= 0 && wi + 1 <= 4) ? P[wi + 1] : 0u;
  return off == 0 ? lo : (lo >> off) | (hi << (32 - off));
}

// Payne-Hanek for finite |x| >= 2^12 (bits a): n mod 4 and r = x - n pi/2.
vec2 hlo_reduce_large_f_(uint a, out int n) {
  uint X;
  int ex;
  hlo_split_f32_(a, X, ex);
  // Bit p of 2/pi (p = 0 is the 2^-1 bit) contributes a multiple of 2^(ex - 24 - p) to
  // x * 2/pi: those with p <= ex - 26 make multiples of 4 and are skipped. Positions before the
  // binary point (p0 < 0) read as zeros.
  int p0 = ex - 25;
  int w0 = p0 >> 5;
  int o = p0 & 31;
  uint W0 = hlo_two_over_pi_word_f_(w0), W1 = hlo_two_over_pi_word_f_(w0 + 1);
  uint W2 = hlo_two_over_pi_word_f_(w0 + 2), W3 = hlo_two_over_pi_word_f_(w0 + 3);
  // P = X * (W0 W1 W2 W3), 160 bits in P[4]..P[0].
  uint h0, l0, h1, l1, h2, l2, h3, l3, c1, c2, c3;
  umulExtended(X, W3, h3, l3);
  umulExtended(X, W2, h2, l2);
  umulExtended(X, W1, h1, l1);
  umulExtended(X, W0, h0, l0);
  uint P[5];
  P[0] = l3;
  P[1] = uaddCarry(h3, l2, c1);
  P[2] = uaddCarry(h2, l1, c2);
  P[2] = uaddCarry(P[2], c1, c1);
  P[3] = uaddCarry(h1, l0, c3);
  P[3] = uaddCarry(P[3], c2 + c1, c2);
  P[4] = h0 + c3 + c2;
  // x * 2/pi = P * 2^-B (mod 4), B = 151 + 32 w0 - ex = 126 - o.
  int B = 126 - o;
  uint int_bits = hlo_bits160_(P, B);
  uint fa = hlo_bits160_(P, B - 32);
  uint fb = hlo_bits160_(P, B - 64);
  uint fc = hlo_bits160_(P, B - 96);
  n = int(int_bits & 3u);
  float sign = 1.0;
  if ((fa >> 31) != 0u) {  // fraction >= 1/2: round n up, r = (fraction - 1) pi/2
    n = (n + 1) & 3;
    uint borrow;
    fc = usubBorrow(0u, fc, borrow);
    uint b2;
    fb = usubBorrow(0u, fb, b2);
    fb -= borrow;
    fa = 0u - fa - (b2 | (fb == 0xFFFFFFFFu && borrow != 0u ? 1u : 0u));
    sign = -1.0;
  }
  vec2 f = hlo_fixed96_to_ff_(fa, fb, fc);
  return sign * hlo_ff_mul_(f, vec2(HLO_PIO2_HI_F, HLO_PIO2_LO_F));
}

// x = n pi/2 + r for finite x >= 0: r as a double-float, n mod 4.
vec2 hlo_reduce_f_(float x, out int n) {
  if (x <= 0.785398163) {
    n = 0;
    return vec2(x, 0.0);
  }
  if (x < 6434.0) {
    float k = hlo_floor(x * HLO_TWO_OVER_PI_F + 0.5);
    precise float r1 = x - k * HLO_PIO2_CW1_F;  // exact
    vec2 a = hlo_two_sum_(r1, -k * HLO_PIO2_CW2_F);
    vec2 b = hlo_two_sum_(a.x, -k * HLO_PIO2_CW3_F);
    vec2 c = hlo_two_sum_(b.x, -k * HLO_PIO2_CW4_F);
    precise float lo = ((a.y + b.y) + c.y) - k * HLO_PIO2_CW5_F;
    n = int(k) & 3;
    return hlo_fast_two_sum_(c.x, lo);
  }
  return hlo_reduce_large_f_(floatBitsToUint(x), n);
}

// sin(r) and cos(r) for |r.x| <= pi/4 + a little, as double-floats.
vec2 hlo_sin_kernel_f_(vec2 r) {
  float z = r.x * r.x;
  float S = -0.166666672 + z * (0.00833333191 + z * (-0.00019840087 + z * 2.72499256e-06));
  precise float tail = r.x * z * S + r.y * (1.0 - 0.5 * z);
  return hlo_fast_two_sum_(r.x, tail);
}
vec2 hlo_cos_kernel_f_(vec2 r) {
  vec2 z = hlo_two_prod_(r.x, r.x);
  float C = 0.0416666642 + z.x * (-0.00138883025 + z.x * 2.45479423e-05);
  precise float hz = 0.5 * z.x;
  precise float w = 1.0 - hz;
  precise float tail = (((1.0 - w) - hz) - 0.5 * z.y) + (z.x * z.x * C - r.x * r.y);
  return hlo_fast_two_sum_(w, tail);
}

float hlo_sine(float x) {
  if (!hlo_is_finite(x)) return hlo_is_nan_(x) ? hlo_quiet_(x) : hlo_nan_();
  float a = abs(x);
  if (a < 0.000244140625) return x;  // 2^-12: sin x rounds to x
  int n;
  vec2 r = hlo_reduce_f_(a, n);
  vec2 v = (n & 1) == 0 ? hlo_sin_kernel_f_(r) : hlo_cos_kernel_f_(r);
  float s = (n & 2) == 0 ? v.x : -v.x;
  return x < 0.0 ? -s : s;
}

float hlo_cosine(float x) {
  if (!hlo_is_finite(x)) return hlo_is_nan_(x) ? hlo_quiet_(x) : hlo_nan_();
  float a = abs(x);
  if (a < 0.000244140625) return 1.0;  // cos x rounds to 1
  int n;
  vec2 r = hlo_reduce_f_(a, n);
  vec2 v = (n & 1) == 0 ? hlo_cos_kernel_f_(r) : hlo_sin_kernel_f_(r);
  return ((n + 1) & 2) == 0 ? v.x : -v.x;
}

// (cos x, sin x) with one argument reduction (for the complex functions).
// tan x, and (cos x, sin x) in `cs`, from one range reduction: complex tan needs both, and each
// reduction inlined is a large part of a kernel's code (the f64 one especially).
float hlo_tan_sincos_(float x, out vec2 cs) {
  if (!hlo_is_finite(x)) {
    cs = vec2(hlo_is_nan_(x) ? hlo_quiet_(x) : hlo_nan_());
    return cs.x;
  }
  float a = abs(x);
  if (a < 0.000244140625) {
    cs = vec2(1.0, x);
    return x;
  }
  int n;
  vec2 r = hlo_reduce_f_(a, n);
  vec2 s = hlo_sin_kernel_f_(r), c = hlo_cos_kernel_f_(r);
  // One division inlined, not two: the operands are chosen instead.
  bool odd = (n & 1) != 0;
  float q = hlo_ff_divide_(odd ? c : s, odd ? s : c);
  float t = odd ? -q : q;
  vec2 v = odd ? vec2(-s.x, c.x) : vec2(c.x, s.x);
  if ((n & 2) != 0) v = -v;
  cs = vec2(v.x, x < 0.0 ? -v.y : v.y);
  return x < 0.0 ? -t : t;
}

vec2 hlo_sincos_(float x) {  // (cos x, sin x); the unused division is dead code
  vec2 cs;
  hlo_tan_sincos_(x, cs);
  return cs;
}

float hlo_tan(float x) {
  vec2 cs;  // dead code
  return hlo_tan_sincos_(x, cs);
}


// atan(u) for u in [0, 1] given as a double-float, as a double-float.
vec2 hlo_atan_ff_(vec2 u) {
  vec2 base = vec2(0.0);
  vec2 v = u;
  if (u.x >= 0.6875) {  // atan(1) + atan((u - 1) / (u + 1))
    base = vec2(HLO_PIO4_HI_F, HLO_PIO4_LO_F);
    vec2 num = hlo_ff_add_(u, vec2(-1.0, 0.0));
    vec2 den = hlo_ff_add_(u, vec2(1.0, 0.0));
    float q = hlo_ff_divide_(num, den);
    vec2 p = hlo_two_prod_(q, den.x);
    precise float ql = (((num.x - p.x) - p.y) + num.y - q * den.y) / den.x;
    v = vec2(q, ql);
  } else if (u.x >= 0.4375) {  // atan(1/2) + atan((u - 1/2) / (1 + u/2))
    base = vec2(HLO_ATAN_HALF_HI_F, HLO_ATAN_HALF_LO_F);
    vec2 num = hlo_ff_add_(u, vec2(-0.5, 0.0));
    vec2 den = hlo_ff_add_(vec2(1.0, 0.0), 0.5 * u);
    float q = hlo_ff_divide_(num, den);
    vec2 p = hlo_two_prod_(q, den.x);
    precise float ql = (((num.x - p.x) - p.y) + num.y - q * den.y) / den.x;
    v = vec2(q, ql);
  }
  float z = v.x * v.x;
  float A = -0.333333313 + z * (0.199993148 + z * (-0.142565757 + z * (0.106683858 + z * -0.0621581152)));
  precise float tail = v.x * z * A + v.y * (1.0 - z);  // d atan = dv / (1 + v^2)
  vec2 t = hlo_fast_two_sum_(v.x, tail);
  return hlo_ff_add_(base, t);
}

float hlo_atan2(float y, float x) {
  if (hlo_is_nan_(x)) return hlo_quiet_(x);
  if (hlo_is_nan_(y)) return hlo_quiet_(y);
  bool x_negative = (floatBitsToUint(x) >> 31) != 0u;
  float ay = abs(y), ax = abs(x);
  float result;
  if (ay == 0.0) {
    result = x_negative ? HLO_PI_HI_F : 0.0;  // +-0 and +-pi (x = -0 counts as negative)
  } else if (hlo_is_inf_(ay)) {
    result = hlo_is_inf_(ax) ? (x_negative ? 2.35619449 : HLO_PIO4_HI_F) : HLO_PIO2_HI_F;
  } else if (ax == 0.0) {
    result = HLO_PIO2_HI_F;
  } else if (hlo_is_inf_(ax)) {
    result = x_negative ? HLO_PI_HI_F : 0.0;
  } else if (ay > 1.8446744e19 * ax) {
    result = HLO_PIO2_HI_F;  // |x / y| < 2^-64: pi/2 -+ a vanishing angle
  } else {
    // Scale both to |x| ~ 1 (exact unless |y| underflows, where the result is tiny anyway).
    uint X;
    int ex;
    hlo_split_f32_(floatBitsToUint(ax), X, ex);
    float sx = hlo_ldexp_(ax, -ex), sy = hlo_ldexp_(ay, -ex);
    bool swap = sy > sx;
    float num = swap ? sx : sy, den = swap ? sy : sx;
    float q = hlo_divide(num, den);
    vec2 p = hlo_two_prod_(q, den);
    precise float ql = ((num - p.x) - p.y) / den;
    // Below 2^-60 atan(q) rounds like q (and the residual would underflow).
    vec2 t = q < 8.67361738e-19 ? vec2(q, 0.0) : hlo_atan_ff_(vec2(q, ql));
    if (swap) t = hlo_ff_add_(vec2(HLO_PIO2_HI_F, HLO_PIO2_LO_F), -t);
    if (x_negative) t = hlo_ff_add_(vec2(HLO_PI_HI_F, HLO_PI_LO_F), -t);
    result = t.x;
  }
  return hlo_copysign_(result, y);
}

#endif  // HLO_TRIG_F32_GLSL
