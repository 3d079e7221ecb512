// 64-bit integers (i64, ui64) emulated as uvec2(low word, high word) on devices without
// shaderInt64 (codegen/elemental/types.h: TypeFacts::emulated). The uvec2 is the storage form
// too, so loads and stores are free; every operation below is exact 32-bit integer arithmetic
// (uaddCarry, usubBorrow, umulExtended, shifts by less than 32), which Vulkan defines exactly,
// and follows the interpreter (src/interp/elementwise_ops.cc) bit for bit:
//   wraparound; x / 0 = -1 (all bits); INT64_MIN / -1 = INT64_MIN; x % 0 = x; INT64_MIN % -1 = 0;
//   shift amounts read as unsigned, >= 64 gives 0 (arithmetic right shifts: the sign).
// Names end in _s (signed) or _u (unsigned) where the two differ.
//
// Needs: GLSL 4.50 core only.
#ifndef HLO_I64_GLSL
#define HLO_I64_GLSL

#include "hlo_u64.glsl"

uvec2 hlo_e64_from_i32(int v) { return uvec2(uint(v), uint(v >> 31)); }
uvec2 hlo_e64_from_u32(uint v) { return uvec2(v, 0u); }
bool hlo_e64_is_neg(uvec2 a) { return int(a.y) < 0; }
bool hlo_e64_nonzero(uvec2 a) { return (a.x | a.y) != 0u; }

uvec2 hlo_e64_neg(uvec2 a) { return hlo_u64_sub(uvec2(0u), a); }

bool hlo_e64_lt_s(uvec2 a, uvec2 b) { return int(a.y) < int(b.y) || (a.y == b.y && a.x < b.x); }
bool hlo_e64_lt_u(uvec2 a, uvec2 b) { return a.y < b.y || (a.y == b.y && a.x < b.x); }

uvec2 hlo_e64_max_s(uvec2 a, uvec2 b) { return hlo_e64_lt_s(a, b) ? b : a; }
uvec2 hlo_e64_min_s(uvec2 a, uvec2 b) { return hlo_e64_lt_s(b, a) ? b : a; }
uvec2 hlo_e64_max_u(uvec2 a, uvec2 b) { return hlo_e64_lt_u(a, b) ? b : a; }
uvec2 hlo_e64_min_u(uvec2 a, uvec2 b) { return hlo_e64_lt_u(b, a) ? b : a; }

uvec2 hlo_e64_abs(uvec2 a) { return hlo_e64_is_neg(a) ? hlo_e64_neg(a) : a; }
uvec2 hlo_e64_sign_s(uvec2 a) {
  if (hlo_e64_is_neg(a)) return uvec2(0xffffffffu);
  return hlo_e64_nonzero(a) ? uvec2(1u, 0u) : uvec2(0u);
}
uvec2 hlo_e64_sign_u(uvec2 a) { return hlo_e64_nonzero(a) ? uvec2(1u, 0u) : uvec2(0u); }

// Unsigned quotient and remainder, b != 0: 32-bit division when both fit, else restoring
// division over the bits a has beyond b.
void hlo_e64_divmod_u_(uvec2 a, uvec2 b, out uvec2 q, out uvec2 r) {
  if (a.y == 0u && b.y == 0u) {
    q = uvec2(a.x / b.x, 0u);
    r = uvec2(a.x % b.x, 0u);
    return;
  }
  q = uvec2(0u);
  r = a;
  if (hlo_e64_lt_u(a, b)) return;
  int s = hlo_u64_msb(a) - hlo_u64_msb(b);
  uvec2 d = hlo_u64_shl(b, s);
  for (int i = s; i >= 0; --i) {
    q = hlo_u64_shl(q, 1);
    if (!hlo_e64_lt_u(r, d)) {
      r = hlo_u64_sub(r, d);
      q.x |= 1u;
    }
    d = hlo_u64_shr(d, 1);
  }
}

uvec2 hlo_e64_div_u(uvec2 a, uvec2 b) {
  if (!hlo_e64_nonzero(b)) return uvec2(0xffffffffu);
  uvec2 q, r;
  hlo_e64_divmod_u_(a, b, q, r);
  return q;
}

uvec2 hlo_e64_rem_u(uvec2 a, uvec2 b) {
  if (!hlo_e64_nonzero(b)) return a;
  uvec2 q, r;
  hlo_e64_divmod_u_(a, b, q, r);
  return r;
}

uvec2 hlo_e64_div_s(uvec2 a, uvec2 b) {
  if (!hlo_e64_nonzero(b)) return uvec2(0xffffffffu);
  if (b == uvec2(0xffffffffu)) return hlo_e64_neg(a);
  uvec2 q, r;
  hlo_e64_divmod_u_(hlo_e64_abs(a), hlo_e64_abs(b), q, r);
  return hlo_e64_is_neg(a) != hlo_e64_is_neg(b) ? hlo_e64_neg(q) : q;
}

uvec2 hlo_e64_rem_s(uvec2 a, uvec2 b) {
  if (!hlo_e64_nonzero(b)) return a;
  if (b == uvec2(0xffffffffu)) return uvec2(0u);
  uvec2 q, r;
  hlo_e64_divmod_u_(hlo_e64_abs(a), hlo_e64_abs(b), q, r);
  return hlo_e64_is_neg(a) ? hlo_e64_neg(r) : r;
}

// Exponentiation by squaring, wrapping; a negative signed exponent leaves only |base| = 1.
uvec2 hlo_e64_pow_u(uvec2 a, uvec2 e) {
  uvec2 r = uvec2(1u, 0u);
  while (hlo_e64_nonzero(e)) {
    if ((e.x & 1u) != 0u) r = hlo_u64_mul_lo(r, a);
    a = hlo_u64_mul_lo(a, a);
    e = hlo_u64_shr(e, 1);
  }
  return r;
}

uvec2 hlo_e64_pow_s(uvec2 a, uvec2 e) {
  if (hlo_e64_is_neg(e)) {
    if (a == uvec2(1u, 0u)) return a;
    if (a == uvec2(0xffffffffu)) return (e.x & 1u) != 0u ? a : uvec2(1u, 0u);
    return uvec2(0u);
  }
  return hlo_e64_pow_u(a, e);
}

// Shifts by an amount read as unsigned.
uvec2 hlo_e64_shl(uvec2 a, uvec2 n) {
  if (n.y != 0u || n.x > 63u) return uvec2(0u);
  return hlo_u64_shl(a, int(n.x));
}

uvec2 hlo_e64_shr_logical(uvec2 a, uvec2 n) {
  if (n.y != 0u || n.x > 63u) return uvec2(0u);
  return hlo_u64_shr(a, int(n.x));
}

uvec2 hlo_e64_shr_arithmetic(uvec2 a, uvec2 n) {
  int k = (n.y != 0u || n.x > 63u) ? 63 : int(n.x);
  if (k == 0) return a;
  uint fill = uint(int(a.y) >> 31);
  if (k >= 32) return uvec2(uint(int(a.y) >> (k - 32)), fill);
  return uvec2((a.x >> k) | (a.y << (32 - k)), uint(int(a.y) >> k));
}

uvec2 hlo_e64_popcnt(uvec2 a) { return uvec2(uint(bitCount(a.x) + bitCount(a.y)), 0u); }

// findMSB(0u) is -1, so zero counts 64.
uvec2 hlo_e64_clz(uvec2 a) { return uvec2(uint(a.y != 0u ? 31 - findMSB(a.y) : 63 - findMSB(a.x)), 0u); }

// |x| truncated toward zero, for a finite |x| < 2^64, from the bits (no float arithmetic).
uvec2 hlo_e64_magnitude_from_f32_(float x) {
  uint b = floatBitsToUint(x) & 0x7fffffffu;
  int e = int(b >> 23) - 127;
  if (e < 0) return uvec2(0u);
  uint m = (b & 0x7fffffu) | 0x800000u;
  if (e <= 23) return uvec2(m >> uint(23 - e), 0u);
  return hlo_u64_shl(uvec2(m, 0u), e - 23);
}

// float -> i64 / ui64: truncate toward zero, saturate, NaN -> 0 (as the interpreter). The
// bounds are powers of two, exact in float.
uvec2 hlo_e64_s_from_f32(float x) {
  if ((floatBitsToUint(x) & 0x7fffffffu) > 0x7f800000u) return uvec2(0u);
  if (x >= 9223372036854775808.0) return uvec2(0xffffffffu, 0x7fffffffu);
  if (x < -9223372036854775808.0) return uvec2(0u, 0x80000000u);
  uvec2 m = hlo_e64_magnitude_from_f32_(x);
  return (floatBitsToUint(x) >> 31) != 0u ? hlo_e64_neg(m) : m;
}

uvec2 hlo_e64_u_from_f32(float x) {
  if ((floatBitsToUint(x) & 0x7fffffffu) > 0x7f800000u) return uvec2(0u);
  if (x >= 18446744073709551616.0) return uvec2(0xffffffffu);
  if (x <= 0.0) return uvec2(0u);
  return hlo_e64_magnitude_from_f32_(x);
}

#endif  // HLO_I64_GLSL
