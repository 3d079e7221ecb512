// Conversions and precision reduction whose results the spec fixes bit for bit, computed on the
// bit patterns with integer arithmetic (bit-exact with src/interp/elementwise_convert.cc):
//
//   float hlo_f32_from_u32(uint v), hlo_f32_from_i32(int v)        round to nearest even, once
//   float hlo_f32_from_u64_(uvec2 v), hlo_f32_from_i64_(uvec2 v)   (low word, high word)
//   float hlo_odd_from_u32(uint v), hlo_odd_from_u64_(uvec2 v)     round to odd at 24 bits
//   float hlo_reduce_precision(float x, int e, int m, int src_e, int src_m, int src_min_exp)
//
// Vulkan calls OpConvertUToF/SToF "correctly rounded" but leaves the rounding mode open unless
// a shader declares RoundingModeRTE (VK_KHR_shader_float_controls, not on every device), and it
// gives frexp, ldexp and roundEven no precision at all. Integer arithmetic on the bits needs
// neither. Round to odd at 24 bits makes a later rounding to a format of 22 bits or fewer (the
// narrow-float codecs) correct: one rounding in all.
//
// Needs: GLSL 4.50 core only (32-bit types).
#ifndef HLO_CONVERT_F32_GLSL
#define HLO_CONVERT_F32_GLSL

#include "hlo_basic_f32.glsl"
#include "hlo_u64.glsl"

// ---- integers to f32 ----

float hlo_f32_from_u32(uint v) {
  if (v < 0x1000000u) return float(v);  // exact
  int p = findMSB(v);
  return hlo_pack_f32_(0u, p, v << (31 - p), false);
}

float hlo_f32_from_i32(int v) {
  float m = hlo_f32_from_u32(v < 0 ? 0u - uint(v) : uint(v));
  return v < 0 ? uintBitsToFloat(floatBitsToUint(m) | 0x80000000u) : m;
}

float hlo_f32_from_u64_(uvec2 v) {
  if (v.y == 0u) return hlo_f32_from_u32(v.x);
  int p = hlo_u64_msb(v);
  uvec2 s = hlo_u64_shl(v, 63 - p);  // bit 63 set
  return hlo_pack_f32_(0u, p, s.y, s.x != 0u);
}

float hlo_f32_from_i64_(uvec2 v) {
  bool negative = hlo_u64_is_negative(v);
  float m = hlo_f32_from_u64_(negative ? hlo_u64_sub(uvec2(0u), v) : v);
  return negative ? uintBitsToFloat(floatBitsToUint(m) | 0x80000000u) : m;
}

// v rounded to odd at 24 significant bits: exact below 2^24, otherwise truncated with the last
// kept bit set when anything was dropped. The result is an f32 (no rounding mode involved).
float hlo_odd_from_u32(uint v) {
  if (v < 0x1000000u) return float(v);
  int shift = findMSB(v) - 23;
  uint kept = v >> uint(shift);
  if ((v & ((1u << uint(shift)) - 1u)) != 0u) kept |= 1u;
  return uintBitsToFloat((uint(150 + shift) << 23) | (kept & 0x7FFFFFu));  // kept * 2^shift
}

float hlo_odd_from_u64_(uvec2 v) {
  if (v.y == 0u) return hlo_odd_from_u32(v.x);
  int shift = hlo_u64_msb(v) - 23;
  uvec2 kept = hlo_u64_shr(v, shift);
  if (!hlo_u64_is_zero(hlo_u64_low_bits(v, shift))) kept.x |= 1u;
  return uintBitsToFloat((uint(150 + shift) << 23) | (kept.x & 0x7FFFFFu));
}

// ---- reduce_precision ----

// n * 2^q for 0 < n < 2^25, packed exactly (or infinity beyond the range).
float hlo_pack_exact_f32_(uint sign, uint n, int q) {
  int p = findMSB(n);
  return hlo_pack_f32_(sign, p + q, n << (31 - p), false);
}

// x rounded to `m` mantissa bits (ties to even, at the source format's own quantum below its
// smallest normal exponent src_min_exp), then with exponents outside `e` bits mapped to infinity
// or zero of x's sign, as XLA's bit-level definition does. NaN stays x (becomes an infinity of
// its sign when no mantissa bits are left). `x` holds a value of a format of src_e exponent and
// src_m <= 23 mantissa bits (f32 itself, or a narrower one widened exactly).
float hlo_reduce_precision(float x, int e, int m, int src_e, int src_m, int src_min_exp) {
  uint b = floatBitsToUint(x);
  uint a = b & 0x7FFFFFFFu;
  uint sign = b & 0x80000000u;
  if (a > 0x7F800000u) return m > 0 ? x : hlo_inf_(sign);
  if (a == 0x7F800000u || a == 0u) return x;
  uint X;
  int ex;
  hlo_split_f32_(a, X, ex);  // |x| = X * 2^(ex - 23)
  if (m < src_m) {
    int q = max(ex, src_min_exp) - m;  // the quantum's exponent
    int drop = q - (ex - 23);          // bits of X below the quantum, >= 1
    uint n;
    if (drop > 24) {
      n = 0u;  // X < 2^24 < half the quantum
    } else if (drop == 24) {
      n = X > 0x800000u ? 1u : 0u;  // a tie goes to the even 0
    } else {
      n = X >> drop;
      uint rest = X & ((1u << drop) - 1u);
      uint halfway = 1u << (drop - 1);
      if (rest > halfway || (rest == halfway && (n & 1u) != 0u)) n += 1u;
    }
    if (n == 0u) return uintBitsToFloat(sign);
    x = hlo_pack_exact_f32_(sign, n, q);
    a = floatBitsToUint(x) & 0x7FFFFFFFu;
    if (a == 0x7F800000u) return x;
    hlo_split_f32_(a, X, ex);
  }
  if (e < src_e) {
    int reduced_bias = (1 << (e - 1)) - 1;
    if (ex > reduced_bias) return hlo_inf_(sign);
    if (ex <= -reduced_bias) return uintBitsToFloat(sign);
  }
  return x;
}

#endif  // HLO_CONVERT_F32_GLSL
