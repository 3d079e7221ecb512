// 64-bit unsigned integers as uvec2(low word, high word), for exact significand arithmetic
// without the Int64 capability (many mobile GPUs lack shaderInt64).
//
// Needs: GLSL 4.50 core only. Used by the codecs and by the f64 arithmetic.
#ifndef HLO_U64_GLSL
#define HLO_U64_GLSL

uvec2 hlo_u64_add(uvec2 a, uvec2 b) {
  uint carry;
  uint lo = uaddCarry(a.x, b.x, carry);
  return uvec2(lo, a.y + b.y + carry);
}

uvec2 hlo_u64_sub(uvec2 a, uvec2 b) {
  uint borrow;
  uint lo = usubBorrow(a.x, b.x, borrow);
  return uvec2(lo, a.y - b.y - borrow);
}

// The low 64 bits of a * b.
uvec2 hlo_u64_mul_lo(uvec2 a, uvec2 b) {
  uint hi, lo;
  umulExtended(a.x, b.x, hi, lo);
  return uvec2(lo, hi + a.x * b.y + a.y * b.x);
}

// a << n for n in [0, 63].
uvec2 hlo_u64_shl(uvec2 a, int n) {
  if (n == 0) return a;
  if (n >= 32) return uvec2(0u, a.x << (n - 32));
  return uvec2(a.x << n, (a.y << n) | (a.x >> (32 - n)));
}

// a >> n for n in [0, 63].
uvec2 hlo_u64_shr(uvec2 a, int n) {
  if (n == 0) return a;
  if (n >= 32) return uvec2(a.y >> (n - 32), 0u);
  return uvec2((a.x >> n) | (a.y << (32 - n)), a.y >> n);
}

bool hlo_u64_lt(uvec2 a, uvec2 b) { return a.y < b.y || (a.y == b.y && a.x < b.x); }
bool hlo_u64_is_zero(uvec2 a) { return (a.x | a.y) == 0u; }
// The sign bit, reading the value as a two's complement int64.
bool hlo_u64_is_negative(uvec2 a) { return (a.y >> 31) != 0u; }

// Index of the most significant set bit (-1 for zero).
int hlo_u64_msb(uvec2 a) { return a.y != 0u ? 32 + findMSB(a.y) : findMSB(a.x); }

// The bits of a below bit n (n in [0, 64]).
uvec2 hlo_u64_low_bits(uvec2 a, int n) {
  if (n >= 64) return a;
  if (n >= 32) return uvec2(a.x, a.y & ((1u << (n - 32)) - 1u));
  return uvec2(n == 0 ? 0u : a.x & ((1u << n) - 1u), 0u);
}

#endif  // HLO_U64_GLSL
