// stablehlo.rng (UNIFORM, NORMAL), the interpreter's function (src/interp/random_ops.cc defines
// it; keep the two in step): a counter-based generator, so element i is a pure function of
// (seed, i) and each invocation computes its own elements. codegen/random/rng.cc chooses the
// variant and generates the type-specific pieces.
//   seed: Mix of the op's location (SEED_LO, SEED_HI, folded at compile time), the storage bits
//     of the bounds a and b (read from their buffers: they are run-time values) and the element
//     type (TYPE_CODE), in 64-bit arithmetic on uvec2 (no shaderInt64).
//   element i: r = Philox-4x32 (10 rounds) of counter (i, 0, 0, 0) under the seed.
//   UNIFORM floats: u b + (1 - u) a in f32 (f64 for f64) with `precise` (no fused multiply-add,
//     as the interpreter's separate roundings), rounded to the type by the elemental emitter's
//     convert, a when that is not below b: bit-exact.
//   UNIFORM integers (and i1): a + high half of (bits x (b - a)), in 32-bit arithmetic
//     (umulExtended; 64-bit types on uvec2): bit-exact.
//   NORMAL: Box-Muller in f32 (f64 for f64) with the GLSL library's hlo_log and hlo_cosine
//     (accurate to a few ulp, unlike some drivers' built-ins): within a few ulp.
//
// Defines: RNG_FLOAT, RNG_NORMAL, RNG_WIDE (64-bit type), RNG_SIGNED; WORK (the type elements
// are computed in: float, double, uint or uvec2), RAW (storage words: uint or uvec2),
// STORAGE_BITS; N elements, ITEMS output words (or 64-bit elements), GROUP; SEED_LO, SEED_HI,
// TYPE_CODE. Generated before this file (rng.cc):
//   void rng_load_bounds(out WORK a, out WORK b, out RAW a_raw, out uvec2 a_bits, out uvec2 b_bits)
//     the bounds in WORK, a's storage, and both bounds' storage bits;
//   RAW rng_round(WORK v, out WORK rounded)   (floats) v rounded to the type: its storage bits,
//     and the rounded value back in WORK.
// The output is binding OUT; hlo_u64.glsl (and for floats hlo_math) are included before.

#include "random/philox.glsl"

uvec2 rng_mix(uvec2 h, uvec2 v) {
  uvec2 t = hlo_u64_add(hlo_u64_add(v, uvec2(0x7F4A7C15u, 0x9E3779B9u)), hlo_u64_add(hlo_u64_shl(h, 6), hlo_u64_shr(h, 2)));
  h ^= t;
  h ^= hlo_u64_shr(h, 33);
  h = hlo_u64_mul_lo(h, uvec2(0xED558CCDu, 0xFF51AFD7u));
  h ^= hlo_u64_shr(h, 33);
  return h;
}
// The high 64 bits of the 128-bit product a * b.
uvec2 rng_mul_high64(uvec2 a, uvec2 b) {
  uint h00, l00, h01, l01, h10, l10, h11, l11;
  umulExtended(a.x, b.x, h00, l00);
  umulExtended(a.x, b.y, h01, l01);
  umulExtended(a.y, b.x, h10, l10);
  umulExtended(a.y, b.y, h11, l11);
  uint c1, c2, c3, c4, c5;
  uint m = uaddCarry(h00, l01, c1);
  m = uaddCarry(m, l10, c2);
  uint lo = uaddCarry(l11, h01, c3);
  lo = uaddCarry(lo, h10, c4);
  lo = uaddCarry(lo, c1 + c2, c5);
  return uvec2(lo, h11 + c3 + c4 + c5);
}
uvec2 rng_key;
WORK rng_a, rng_b;
RAW rng_lo;

#if RNG_FLOAT
// v's storage bits, or a's when `clamp` and v rounded to the type is not below hi.
RAW rng_store(WORK v, WORK hi, bool clamp) {
  WORK rounded;
  RAW bits = rng_round(v, rounded);
  return (!clamp || rounded < hi) ? bits : rng_lo;
}
#endif

RAW rng_element(uint i) {
  uvec4 r = philox4x32(uvec4(i, 0u, 0u, 0u), rng_key);
#if RNG_FLOAT && RNG_WIDE
  double u = (double(r.y >> 11u) * 4294967296.0LF + double((r.y << 21u) | (r.x >> 11u))) * 1.1102230246251565404236316680908203125e-16LF;
#elif RNG_FLOAT
  float u = float(r.x >> 8u) * 5.9604644775390625e-8;
#endif
#if RNG_FLOAT && RNG_NORMAL && RNG_WIDE
  double u2 = (double(r.w >> 11u) * 4294967296.0LF + double((r.w << 21u) | (r.z >> 11u))) * 1.1102230246251565404236316680908203125e-16LF;
  double u1 = u + 1.1102230246251565404236316680908203125e-16LF;
  precise double radius = sqrt(-2.0LF * hlo_log(u1));
  precise double z = radius * hlo_cosine(6.283185307179586LF * u2);
  precise double v = rng_a + rng_b * z;
  return rng_store(v, rng_b, false);
#elif RNG_FLOAT && RNG_NORMAL
  float u2 = float(r.z >> 8u) * 5.9604644775390625e-8;
  float u1 = u + 5.9604644775390625e-8;
  precise float radius = sqrt(-2.0 * hlo_log(u1));
  precise float angle = 6.283185482025146484375 * u2;
  precise float z = radius * hlo_cosine(angle);
  precise float v = rng_a + rng_b * z;
  return rng_store(v, rng_b, false);
#elif RNG_FLOAT
  precise WORK v = u * rng_b + (WORK(1) - u) * rng_a;
  return rng_store(v, rng_b, true);
#elif RNG_WIDE
  uvec2 range = hlo_u64_sub(rng_b, rng_a);
#if RNG_SIGNED
  uvec2 sign = uvec2(0u, 0x80000000u);
  bool empty = !hlo_u64_lt(rng_a ^ sign, rng_b ^ sign);
#else
  bool empty = !hlo_u64_lt(rng_a, rng_b);
#endif
  return hlo_u64_add(rng_a, empty ? uvec2(0u) : rng_mul_high64(r.xy, range));
#else
  uint range = rng_b - rng_a, high, low;
  umulExtended(r.x, range, high, low);
#if RNG_SIGNED
  bool empty = int(rng_a) >= int(rng_b);
#else
  bool empty = rng_a >= rng_b;
#endif
  // The value is in the type's range, so its low storage bits are its storage (sign-extended
  // within the storage for signed sub-byte types, as the interpreter stores them).
  return (rng_a + (empty ? 0u : high)) & (STORAGE_BITS >= 32 ? 0xffffffffu : (1u << STORAGE_BITS) - 1u);
#endif
}

void main() {
  VKHLO_KEEP_BINDINGS
  uvec2 a_bits, b_bits;
  rng_load_bounds(rng_a, rng_b, rng_lo, a_bits, b_bits);
  rng_key = rng_mix(rng_mix(rng_mix(uvec2(SEED_LO, SEED_HI), a_bits), b_bits), uvec2(TYPE_CODE, 0u));
  uint id = vkhlo_workgroup_id(pc).x * GROUP + gl_LocalInvocationID.x;
  if (id >= ITEMS) return;
#if STORAGE_BITS == 64
  uvec2 v = rng_element(id);
  OUT[2u * id] = v.x;
  OUT[2u * id + 1u] = v.y;
#elif STORAGE_BITS == 32
  OUT[id] = rng_element(id);
#else
  // Every element of one output word (no two invocations write one word).
  uint acc = 0u;
  for (uint e = 0u; e < 32u / STORAGE_BITS; ++e) {
    uint i = id * (32u / STORAGE_BITS) + e;
    if (i >= N) break;
    acc |= rng_element(i) << (e * STORAGE_BITS);
  }
  OUT[id] = acc;
#endif
}
