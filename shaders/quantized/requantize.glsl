// q_requant(acc, mantissa, exponent, zo, lo, hi), for the quantized contractions' epilogues
// (codegen/library/quantized.cc puts it in their kernels).
//
// Requantization on 32-bit words: ir::Requantize bit for bit without int64 (uvec2 = low word,
// high word of a two's-complement 64-bit value).
//   y = acc * mantissa exactly (imulExtended, |y| < 2^55);
//   exponent < 0: y / 2^-exponent rounded half to even on the pair (shifts of 63 and more give 0,
//     as |y| < 2^62 is below one half there);
//   exponent >= 0: y * 2^exponent saturated: any |value| beyond 2^33 clamps to the same bound as
//     the exact value would (lo - zo and hi - zo lie within +-2^32), so y is first clamped to
//     +-2^33 and shifted by at most 29 (a nonzero y is at least 2^23 in magnitude, so every
//     larger exponent saturates too);
//   then + zero point and the clamp to [lo, hi], on the pair.
// Both exponent cases are computed and selected (mix with a bool vector: OpSelect), with shift
// amounts kept in range, so the function has no branches: it is inlined once per output of a
// register tile, and llvmpipe's compile time grows fast with basic blocks.

uvec2 q_add64(uvec2 x, uvec2 y) { uint c; uint lo = uaddCarry(x.x, y.x, c); return uvec2(lo, x.y + y.y + c); }
bool q_less64(uvec2 x, uvec2 y) {
  return (uint(int(x.y) < int(y.y)) | (uint(x.y == y.y) & uint(x.x < y.x))) != 0u;
}
uvec2 q_wide(int v) { return uvec2(uint(v), uint(v >> 31)); }
uvec2 q_pick(uvec2 x, uvec2 y, bool take_y) { return mix(x, y, bvec2(take_y)); }
int q_requant(int acc, int mantissa, int exponent, int zo, int lo, int hi) {
  int yh, yl;
  imulExtended(acc, mantissa, yh, yl);
  uvec2 y = uvec2(uint(yl), uint(yh));
  // exponent >= 0: y clamped to +-2^33, shifted left by at most 29.
  uvec2 c = q_pick(y, uvec2(0u, 2u), q_less64(uvec2(0u, 2u), y));
  c = q_pick(c, uvec2(0u, 0xFFFFFFFEu), q_less64(c, uvec2(0u, 0xFFFFFFFEu)));
  uint ls = uint(clamp(exponent, 0, 29));
  uvec2 up_shifted = uvec2(c.x << ls, (c.y << ls) | ((c.x >> 1u) >> (31u - ls)));
  // exponent < 0: y / 2^s rounded half to even (s >= 63: 0).
  uint s = uint(clamp(-exponent, 1, 62));
  uint s1 = min(s, 31u), t = uint(max(int(s) - 32, 0));
  bool low = s < 32u;
  uvec2 fl = q_pick(uvec2(uint(int(y.y) >> t), uint(int(y.y) >> 31)),
                    uvec2((y.x >> s1) | ((y.y << 1u) << (31u - s1)), uint(int(y.y) >> s1)), low);
  uvec2 rem = q_pick(uvec2(y.x, y.y & ((1u << t) - 1u)), uvec2(y.x & ((1u << s1) - 1u), 0u), low);
  uvec2 half_unit = q_pick(uvec2(0u, 1u << uint(max(int(s) - 33, 0))), uvec2(1u << (min(s, 32u) - 1u), 0u), s <= 32u);
  uint up = uint(q_less64(half_unit, rem)) | (uint(rem == half_unit) & fl.x & 1u);
  uvec2 down_shifted = q_add64(fl, uvec2(up, 0u));
  down_shifted = q_pick(down_shifted, uvec2(0u), -exponent >= 63);
  uvec2 r = q_add64(q_pick(down_shifted, up_shifted, exponent >= 0), q_wide(zo));
  r = q_pick(r, q_wide(lo), q_less64(r, q_wide(lo)));
  r = q_pick(r, q_wide(hi), q_less64(q_wide(hi), r));
  return int(r.x);
}
