// The double overloads of hlo_convert_f32.glsl, on the bit patterns (53-bit significands in
// uvec2, hlo_u64.glsl), plus the narrowing f64 -> f32:
//
//   double hlo_f64_from_u64_(uvec2 v), hlo_f64_from_i64_(uvec2 v)   round to nearest even, once
//   float  hlo_f32_from_f64(double x)                                 round to nearest even, once
//   double hlo_reduce_precision(double x, int e, int m, int src_e, int src_m, int src_min_exp)
//
// Not written once with hlo_convert_f32.glsl: these round 53-bit significands held in uvec2
// pairs, the f32 ones a significand in one uint.
//
// Needs: the Float64 capability (shaderFloat64); no Int64.
#ifndef HLO_CONVERT_F64_GLSL
#define HLO_CONVERT_F64_GLSL

#include "hlo_basic_f64.glsl"
#include "hlo_convert_f32.glsl"

// ---- integers to f64 ----

double hlo_f64_from_u64_(uvec2 v) {
  if (v.y < 0x200000u) return hlo_u64_to_double_(v);  // below 2^53: both steps exact
  int p = hlo_u64_msb(v);
  return hlo_pack_f64_(0u, p, hlo_u64_shl(v, 63 - p), false);
}

double hlo_f64_from_i64_(uvec2 v) {
  bool negative = hlo_u64_is_negative(v);
  double m = hlo_f64_from_u64_(negative ? hlo_u64_sub(uvec2(0u), v) : v);
  return negative ? hlo_copysign_(m, -1.0LF) : m;
}

// ---- f64 -> f32 ----

// NaNs keep their sign and the top of their payload, quieted (as x86 and ARM convert).
float hlo_f32_from_f64(double x) {
  uvec2 w = unpackDouble2x32(x);
  uint sign = w.y & 0x80000000u;
  uint hi = w.y & 0x7FFFFFFFu;
  if (hi >= 0x7FF00000u) {
    if (hi == 0x7FF00000u && w.x == 0u) return hlo_inf_(sign);
    return uintBitsToFloat(sign | 0x7FC00000u | ((hi & 0xFFFFFu) << 3) | (w.x >> 29));
  }
  if ((hi | w.x) == 0u) return uintBitsToFloat(sign);
  uvec2 X;
  int ex;
  hlo_split_f64_(w, X, ex);            // |x| = X * 2^(ex - 52), bit 52 of X set
  uvec2 s = hlo_u64_shl(X, 11);        // bit 63 set
  return hlo_pack_f32_(sign, ex, s.y, s.x != 0u);
}

// ---- reduce_precision ----

// As the f32 overload (hlo_convert_f32.glsl), with src_m <= 52.
double hlo_reduce_precision(double x, int e, int m, int src_e, int src_m, int src_min_exp) {
  uvec2 w = unpackDouble2x32(x);
  uint sign = w.y & 0x80000000u;
  if (hlo_is_nan_(x)) return m > 0 ? x : hlo_inf_f64_(sign);
  if (hlo_is_inf_(x) || ((w.y & 0x7FFFFFFFu) | w.x) == 0u) return x;
  uvec2 X;
  int ex;
  hlo_split_f64_(w, X, ex);  // |x| = X * 2^(ex - 52)
  if (m < src_m) {
    int q = max(ex, src_min_exp) - m;
    int drop = q - (ex - 52);  // >= 1
    uvec2 n;
    if (drop > 53) {
      n = uvec2(0u);
    } else if (drop == 53) {
      n = hlo_u64_lt(uvec2(0u, 0x100000u), X) ? uvec2(1u, 0u) : uvec2(0u);  // a tie goes to 0
    } else {
      n = hlo_u64_shr(X, drop);
      uvec2 rest = hlo_u64_low_bits(X, drop);
      uvec2 halfway = hlo_u64_shl(uvec2(1u, 0u), drop - 1);
      if (hlo_u64_lt(halfway, rest) || (rest == halfway && (n.x & 1u) != 0u)) n = hlo_u64_add(n, uvec2(1u, 0u));
    }
    if (hlo_u64_is_zero(n)) return packDouble2x32(uvec2(0u, sign));
    int p = hlo_u64_msb(n);
    x = hlo_pack_f64_(sign, p + q, hlo_u64_shl(n, 63 - p), false);  // n * 2^q, exact
    if (hlo_is_inf_(x)) return x;
    hlo_split_f64_(unpackDouble2x32(x), X, ex);
  }
  if (e < src_e) {
    int reduced_bias = (1 << (e - 1)) - 1;
    if (ex > reduced_bias) return hlo_inf_f64_(sign);
    if (ex <= -reduced_bias) return packDouble2x32(uvec2(0u, sign));
  }
  return x;
}

#endif  // HLO_CONVERT_F64_GLSL
