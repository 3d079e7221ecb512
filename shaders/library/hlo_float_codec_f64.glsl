// Narrow float formats <-> f64, bit-exact with ir::EncodeFloat / ir::DecodeFloat.
//
//   uint   hlo_encode_<fmt>(double v)     rounds once from the double (never through f32)
//   double hlo_decode_<fmt>_f64(uint bits) exact
//
// for every fmt of hlo_float_codec.glsl (whose f32 overloads this file includes). The double's
// bits come from unpackDouble2x32, so no Int64 capability is needed.
//
// Not written once with hlo_float_codec.glsl: a double's bits are two words and round once from
// 53 bits, so splitting and rounding are other code, not the f32 ones with wider types. The table
// of formats that the encoders pass to them is one source, hlo_float_codec_encoders.glsl.
//
// Needs: the Float64 capability (shaderFloat64).
#ifndef HLO_FLOAT_CODEC_F64_GLSL
#define HLO_FLOAT_CODEC_F64_GLSL

#include "hlo_float_codec.glsl"

// As hlo_codec_split_f32_: |v| = sig * 2^(e - 31), the double's 21 lowest significand bits
// folded into a sticky bit 0 (formats round at bit 20 or higher).
void hlo_codec_split_f64_(double v, out bool negative, out int cls, out int e, out uint sig) {
  uvec2 w = unpackDouble2x32(v);  // (low word, high word)
  negative = (w.y >> 31) != 0u;
  uint hi = w.y & 0x7FFFFFFFu;
  uint E = hi >> 20;
  uint M = hi & 0xFFFFFu;
  e = 0;
  sig = 0u;
  if (E == 2047u) {
    cls = (M | w.x) == 0u ? HLO_CLASS_INF : HLO_CLASS_NAN;
  } else if ((hi | w.x) == 0u) {
    cls = HLO_CLASS_ZERO;
  } else if (E == 0u) {
    // A double denormal (< 2^-1022) is far below half of every format's smallest value.
    cls = HLO_CLASS_FINITE;
    e = -1100;
    sig = 0x80000000u;
  } else {
    cls = HLO_CLASS_FINITE;
    e = int(E) - 1023;
    sig = 0x80000000u | (M << 11) | (w.x >> 21) | ((w.x & 0x1FFFFFu) != 0u ? 1u : 0u);
  }
}

uint hlo_codec_encode_f64_(double v, int ebits, int m, int bias, int kind) {
  bool negative;
  int cls, e;
  uint sig;
  hlo_codec_split_f64_(v, negative, cls, e, sig);
  return hlo_codec_encode_(negative, cls, e, sig, ebits, m, bias, kind);
}

// Exact: the f32 decode's bits widened field by field (no float conversion that could flush
// the bf16 denormals, which are f32 denormals).
double hlo_codec_f32_bits_to_f64_(float f) {
  uint b = floatBitsToUint(f);
  uint sign = b & 0x80000000u;
  uint E = (b >> 23) & 0xFFu;
  uint M = b & 0x7FFFFFu;
  if (E == 255u) return packDouble2x32(uvec2(0u, sign | 0x7FF00000u | (M != 0u ? 0x80000u | (M >> 3) : 0u)));
  if (E == 0u) {
    if (M == 0u) return packDouble2x32(uvec2(0u, sign));
    int p = findMSB(M);  // M * 2^-149
    uint field = uint(p - 149 + 1023);
    uint frac = (M << (23 - p)) & 0x7FFFFFu;
    return packDouble2x32(uvec2(frac << 29, sign | (field << 20) | (frac >> 3)));
  }
  return packDouble2x32(uvec2(M << 29, sign | ((E - 127u + 1023u) << 20) | (M >> 3)));
}

double hlo_decode_bf16_f64(uint bits) { return hlo_codec_f32_bits_to_f64_(hlo_decode_bf16(bits)); }
double hlo_decode_f16_f64(uint bits) { return hlo_codec_f32_bits_to_f64_(hlo_decode_f16(bits)); }
double hlo_decode_f8e4m3fn_f64(uint bits) { return hlo_codec_f32_bits_to_f64_(hlo_decode_f8e4m3fn(bits)); }
double hlo_decode_f8e5m2_f64(uint bits) { return hlo_codec_f32_bits_to_f64_(hlo_decode_f8e5m2(bits)); }
double hlo_decode_f8e4m3fnuz_f64(uint bits) { return hlo_codec_f32_bits_to_f64_(hlo_decode_f8e4m3fnuz(bits)); }
double hlo_decode_f8e5m2fnuz_f64(uint bits) { return hlo_codec_f32_bits_to_f64_(hlo_decode_f8e5m2fnuz(bits)); }
double hlo_decode_f8e4m3b11fnuz_f64(uint bits) { return hlo_codec_f32_bits_to_f64_(hlo_decode_f8e4m3b11fnuz(bits)); }
double hlo_decode_f8e4m3_f64(uint bits) { return hlo_codec_f32_bits_to_f64_(hlo_decode_f8e4m3(bits)); }
double hlo_decode_f8e3m4_f64(uint bits) { return hlo_codec_f32_bits_to_f64_(hlo_decode_f8e3m4(bits)); }
double hlo_decode_f8e8m0fnu_f64(uint bits) { return hlo_codec_f32_bits_to_f64_(hlo_decode_f8e8m0fnu(bits)); }
double hlo_decode_f6e2m3fn_f64(uint bits) { return hlo_codec_f32_bits_to_f64_(hlo_decode_f6e2m3fn(bits)); }
double hlo_decode_f6e3m2fn_f64(uint bits) { return hlo_codec_f32_bits_to_f64_(hlo_decode_f6e3m2fn(bits)); }
double hlo_decode_f4e2m1fn_f64(uint bits) { return hlo_codec_f32_bits_to_f64_(hlo_decode_f4e2m1fn(bits)); }

#include "hlo_precision_f64.glsl"
#include "hlo_float_codec_encoders.glsl"
#include "hlo_precision_end.glsl"

#endif  // HLO_FLOAT_CODEC_F64_GLSL
