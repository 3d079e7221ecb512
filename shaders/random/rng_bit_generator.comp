// stablehlo.rng_bit_generator (codegen/random/rng_bit_generator.cc chooses the variant and the
// dispatch): THREE_FRY (Threefry-2x32, 20 rounds) or PHILOX (Philox-4x32, 10 rounds), bit-exact
// with the interpreter (src/interp/random_ops.cc). Element i is a pure function of the state and
// i, so each invocation computes whole output words of its own; invocation 0 also writes the new
// state. All arithmetic is 32-bit: no shaderInt64.
//
// Bindings: b0 the state (u64 words), b1 the new state, b2 the output. Defines:
//   THREE_FRY    1 for Threefry, 0 for Philox
//   STATE_SIZE   u64 words of the state (2, or 3 for Philox with a 128-bit counter)
//   WIDE         1 when elements are 64 bits
//   VALUE_BITS, STORAGE_BITS, SIGNED   the output element: its bits, the bits it is stored in
//                (4-bit types and i1 are stored in bytes), signed integer or not
//   N, ITEMS     elements, and output words (or 64-bit elements) = invocations that work
//   ADVANCE      blocks consumed: the counter's advance
//   SPLIT_DIM, SPLIT_INNER   Threefry's pairing of narrow elements (ir/threefry_layout.h)
//   GROUP        the workgroup size

#include "random/philox.glsl"

uvec2 add64(uvec2 a, uint b) { uint lo = a.x + b; return uvec2(lo, a.y + (lo < a.x ? 1u : 0u)); }
uint rotl(uint v, uint d) { return (v << d) | (v >> (32u - d)); }
uvec2 threefry(uvec2 key, uvec2 x) {
  const uint rot[8] = uint[8](13u, 15u, 26u, 6u, 17u, 29u, 16u, 24u);
  uint ks[3] = uint[3](key.x, key.y, 0x1BD11BDAu ^ key.x ^ key.y);
  x.x += ks[0];
  x.y += ks[1];
  for (uint g = 0u; g < 5u; ++g) {
    for (uint i = 0u; i < 4u; ++i) {
      x.x += x.y;
      x.y = rotl(x.y, rot[(g % 2u) * 4u + i]);
      x.y ^= x.x;
    }
    x.x += ks[(g + 1u) % 3u];
    x.y += ks[(g + 2u) % 3u] + g + 1u;
  }
  return x;
}
uvec2 state_at(uint k) { return uvec2(b0[2u * k], b0[2u * k + 1u]); }
// Philox block i: the 128-bit counter (state[1], high) + i; a 2-word state uses the key as the
// counter's high word (as the interpreter).
uvec4 philox_block(uint i) {
#if STATE_SIZE > 2
  uvec2 lo = state_at(1u), hi = state_at(2u);
#else
  uvec2 lo = state_at(1u), hi = state_at(0u);
#endif
  uvec2 c = add64(lo, i);
  bool carry = c.y < lo.y || (c.y == lo.y && c.x < lo.x);
  uvec2 h = carry ? add64(hi, 1u) : hi;
  return philox4x32(uvec4(c, h), state_at(0u));
}
// Element i's bits (low word, high word).
uvec2 element(uint i) {
#if THREE_FRY
  uvec2 key = state_at(0u), counter = state_at(1u);
#if WIDE
  return threefry(key, add64(counter, i));
#else
  uint c = i / SPLIT_INNER % SPLIT_DIM;
  uint block = (i / (SPLIT_DIM * SPLIT_INNER) * ((SPLIT_DIM + 1u) / 2u) + c / 2u) * SPLIT_INNER + i % SPLIT_INNER;
  uvec2 r = threefry(key, add64(counter, block));
  return uvec2((c & 1u) == 0u ? r.x : r.y, 0u);
#endif
#else
#if WIDE
  uvec4 r = philox_block(i / 2u);
  return (i % 2u) == 0u ? r.xy : r.zw;
#else
  uvec4 r = philox_block(i / 4u);
  return uvec2(r[i % 4u], 0u);
#endif
#endif
}

// An element's storage bits from its value bits: types narrower than their storage keep the low
// VALUE_BITS bits, sign-extended within the storage for signed integers (as the interpreter
// stores them).
#define VALUE_MASK ((1u << VALUE_BITS) - 1u)
#define STORAGE_MASK (STORAGE_BITS >= 32 ? 0xffffffffu : (1u << STORAGE_BITS) - 1u)
#if VALUE_BITS >= 32
#define FIT(v) (v).x
#elif SIGNED && VALUE_BITS < STORAGE_BITS
#define FIT(v) (((((v).x & VALUE_MASK) >> (VALUE_BITS - 1)) & 1u) != 0u ? ((v).x | ~VALUE_MASK) : ((v).x & VALUE_MASK)) & STORAGE_MASK
#else
#define FIT(v) ((v).x & VALUE_MASK)
#endif

void main() {
  VKHLO_KEEP_BINDINGS
  uint id = vkhlo_workgroup_id(pc).x * GROUP + gl_LocalInvocationID.x;
  if (id == 0u) {
    // The new state: key, counter + ADVANCE[, the high word with its carry].
    uvec2 lo = state_at(1u), nlo = add64(lo, ADVANCE);
    b1[0] = b0[0]; b1[1] = b0[1]; b1[2] = nlo.x; b1[3] = nlo.y;
#if !THREE_FRY && STATE_SIZE > 2
    bool carry = nlo.y < lo.y || (nlo.y == lo.y && nlo.x < lo.x);
    uvec2 h = carry ? add64(state_at(2u), 1u) : state_at(2u);
    b1[4] = h.x; b1[5] = h.y;
#endif
  }
  if (id >= ITEMS) return;
#if STORAGE_BITS == 64
  uvec2 v = element(id);
  b2[2u * id] = v.x;
  b2[2u * id + 1u] = v.y;
#elif STORAGE_BITS == 32
  uvec2 v = element(id);
  b2[id] = FIT(v);
#else
  // Every element of one output word (no two invocations write one word).
  uint acc = 0u;
  for (uint e = 0u; e < 32u / STORAGE_BITS; ++e) {
    uint i = id * (32u / STORAGE_BITS) + e;
    if (i >= N) break;
    uvec2 v = element(i);
    acc |= (FIT(v)) << (e * STORAGE_BITS);
  }
  b2[id] = acc;
#endif
}
