// The error-free transformations and double-word (hi + lo) arithmetic that the math files build
// on, written once for f32 and f64: hlo_basic_f32.glsl and hlo_basic_f64.glsl include this file
// between hlo_precision_f32/f64.glsl and hlo_precision_end.glsl (see there for the macros).
//
//   HLO_F2 hlo_two_sum_(a, b), hlo_fast_two_sum_(a, b)   a + b = s + err exactly (TwoSum)
//   HLO_F2 hlo_split_(a)                                 Veltkamp: a = hi + lo, half-width halves
//   HLO_F2 hlo_two_prod_(a, b)                           Dekker: a * b = p + err exactly
//   hlo_ff_add_, hlo_ff_mul_, hlo_ff_mul_f_ (f32) and    double-float (~44 bits) and
//   hlo_dd_add_, hlo_dd_mul_, hlo_dd_mul_d_ (f64)        double-double (~100 bits) sum, product,
//                                                        product with a word
//
// Exact without a fused multiply-add; `precise` keeps the compiler from contracting or
// reassociating them. The algorithms are the same in both precisions; only Veltkamp's splitting
// factor differs.
//
// Has no include guard: each of the two basic files includes it once, inside its own guard.
#ifndef HLO_PRECISION
#error hlo_double_word.glsl is included through hlo_basic_f32.glsl or hlo_basic_f64.glsl
#endif

// a + b = s + err exactly.
HLO_F2 hlo_two_sum_(HLO_F a, HLO_F b) {
  precise HLO_F s = a + b;
  precise HLO_F bb = s - a;
  precise HLO_F err = (a - (s - bb)) + (b - bb);
  return HLO_F2(s, err);
}
// a + b = s + err exactly, for |a| >= |b| (or a == 0).
HLO_F2 hlo_fast_two_sum_(HLO_F a, HLO_F b) {
  precise HLO_F s = a + b;
  precise HLO_F err = b - (s - a);
  return HLO_F2(s, err);
}
// Veltkamp: a = hi + lo with 12-bit (f32) or 26-bit (f64) halves (|a| < 2^115 or 2^995).
// (The f64 factor carries LF: without it the GLSL spec makes it an f32 literal, 2^27. glslang
// keeps unsuffixed literals exact when it widens them, so the SPIR-V is the same either way.)
HLO_F2 hlo_split_(HLO_F a) {
  precise HLO_F c = HLO_PER_PRECISION(4097.0, 134217729.0LF) * a;
  precise HLO_F hi = c - (c - a);
  precise HLO_F lo = a - hi;
  return HLO_F2(hi, lo);
}
// Dekker: a * b = p + err exactly (no overflow, no underflow).
HLO_F2 hlo_two_prod_(HLO_F a, HLO_F b) {
  HLO_F2 sa = hlo_split_(a), sb = hlo_split_(b);
  precise HLO_F p = a * b;
  precise HLO_F err = ((sa.x * sb.x - p) + sa.x * sb.y + sa.y * sb.x) + sa.y * sb.y;
  return HLO_F2(p, err);
}
// Double-word (hi + lo) arithmetic.
HLO_F2 HLO_DW_ADD_(HLO_F2 a, HLO_F2 b) {
  HLO_F2 s = hlo_two_sum_(a.x, b.x);
  precise HLO_F lo = s.y + a.y + b.y;
  return hlo_fast_two_sum_(s.x, lo);
}
HLO_F2 HLO_DW_MUL_(HLO_F2 a, HLO_F2 b) {
  HLO_F2 p = hlo_two_prod_(a.x, b.x);
  precise HLO_F lo = p.y + (a.x * b.y + a.y * b.x);
  return hlo_fast_two_sum_(p.x, lo);
}
HLO_F2 HLO_DW_MUL_W_(HLO_F2 a, HLO_F b) {
  HLO_F2 p = hlo_two_prod_(a.x, b);
  precise HLO_F lo = p.y + a.y * b;
  return hlo_fast_two_sum_(p.x, lo);
}
