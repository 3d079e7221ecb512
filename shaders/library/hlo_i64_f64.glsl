// f64 -> emulated i64/ui64 (hlo_i64.glsl) for a device with shaderFloat64 but without
// shaderInt64: truncate toward zero, saturate, NaN -> 0, from the bits (as the interpreter).
//
// Needs: shaderFloat64.
#ifndef HLO_I64_F64_GLSL
#define HLO_I64_F64_GLSL

#include "hlo_basic_f64.glsl"
#include "hlo_i64.glsl"

// |x| truncated toward zero, for a finite |x| < 2^64.
uvec2 hlo_e64_magnitude_from_f64_(double x) {
  uvec2 w = unpackDouble2x32(x);
  uint hi = w.y & 0x7fffffffu;
  int e = int(hi >> 20) - 1023;
  if (e < 0) return uvec2(0u);
  uvec2 m = uvec2(w.x, (hi & 0xfffffu) | 0x100000u);
  if (e <= 52) return hlo_u64_shr(m, 52 - e);
  return hlo_u64_shl(m, e - 52);
}

uvec2 hlo_e64_s_from_f64(double x) {
  if (hlo_is_nan_(x)) return uvec2(0u);
  if (x >= 9223372036854775808.0LF) return uvec2(0xffffffffu, 0x7fffffffu);
  if (x < -9223372036854775808.0LF) return uvec2(0u, 0x80000000u);
  uvec2 m = hlo_e64_magnitude_from_f64_(x);
  return (unpackDouble2x32(x).y >> 31) != 0u ? hlo_e64_neg(m) : m;
}

uvec2 hlo_e64_u_from_f64(double x) {
  if (hlo_is_nan_(x)) return uvec2(0u);
  if (x >= 18446744073709551616.0LF) return uvec2(0xffffffffu);
  if (x <= 0.0LF) return uvec2(0u);
  return hlo_e64_magnitude_from_f64_(x);
}

#endif  // HLO_I64_F64_GLSL
