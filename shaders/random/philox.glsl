// Philox-4x32-10, shared by rng_bit_generator.comp (PHILOX) and rng.comp: one 128-bit block from
// a 128-bit counter `x` and a 64-bit key, with 32-bit arithmetic only (no shaderInt64).

uvec4 philox4x32(uvec4 x, uvec2 key) {
  for (uint r = 0u; r < 10u; ++r) {
    uint hi0, lo0, hi1, lo1;
    umulExtended(0xD2511F53u, x.x, hi0, lo0);
    umulExtended(0xCD9E8D57u, x.z, hi1, lo1);
    x = uvec4(hi1 ^ x.y ^ key.x, lo1, hi0 ^ x.w ^ key.y, lo0);
    key += uvec2(0x9E3779B9u, 0xBB67AE85u);
  }
  return x;
}
