// Narrow float formats <-> f32, bit-exact with ir::EncodeFloat / ir::DecodeFloat.
//
//   float hlo_decode_<fmt>(uint bits)   exact (every narrow value is an f32)
//   uint  hlo_encode_<fmt>(float v)     round to nearest, ties to even, once
//
// fmt: bf16 f16 f8e4m3fn f8e5m2 f8e4m3fnuz f8e5m2fnuz f8e4m3b11fnuz f8e4m3 f8e3m4 f8e8m0fnu
//      f6e2m3fn f6e3m2fn f4e2m1fn. The bits are in the low bits of the uint (higher bits of a
// decode argument are ignored).
//
// Everything is integer arithmetic on the f32 bit pattern: no float operation can flush a
// denormal or round twice, and packHalf2x16 (whose rounding Vulkan leaves open) is not used.
// Format rules (as src/ir/literal.cc): IEEE formats overflow to infinity and keep the NaN sign
// (canonical quiet NaN); FN formats (NaN = all ones, no infinity) overflow to NaN; FNUZ formats
// (the pattern 100..0 is the one NaN, no -0) overflow to NaN and round negative tiny values to
// +0; formats without NaN (f4, f6) saturate, and encode NaN as the largest magnitude with its
// sign; f8E8M0FNU holds powers of two only (ties go to the larger), negative values are NaN.
//
// Needs: GLSL 4.50 core only (32-bit types).
#ifndef HLO_FLOAT_CODEC_GLSL
#define HLO_FLOAT_CODEC_GLSL

// Special-value conventions of a format.
const int HLO_FMT_IEEE = 0;   // all-ones exponent: infinity (mantissa 0) or NaN
const int HLO_FMT_FN = 1;     // no infinity; NaN = all exponent and mantissa bits set
const int HLO_FMT_FNUZ = 2;   // no infinity, no -0; NaN = sign bit alone
const int HLO_FMT_NONAN = 3;  // no infinity, no NaN (f4, f6)

// Classes of an input value.
const int HLO_CLASS_FINITE = 0;  // finite and non-zero
const int HLO_CLASS_ZERO = 1;
const int HLO_CLASS_INF = 2;
const int HLO_CLASS_NAN = 3;

// |v| = sig * 2^(e - 31) with bit 31 of sig set. Bit 0 may carry a sticky bit (anything
// non-zero below it); every format rounds at bit 20 or higher, so that is exact.
void hlo_codec_split_f32_(float v, out bool negative, out int cls, out int e, out uint sig) {
  uint b = floatBitsToUint(v);
  negative = (b >> 31) != 0u;
  uint a = b & 0x7FFFFFFFu;
  uint E = a >> 23;
  uint M = a & 0x7FFFFFu;
  e = 0;
  sig = 0u;
  if (E == 255u) {
    cls = M == 0u ? HLO_CLASS_INF : HLO_CLASS_NAN;
  } else if (a == 0u) {
    cls = HLO_CLASS_ZERO;
  } else if (E == 0u) {  // f32 denormal: M * 2^-149
    cls = HLO_CLASS_FINITE;
    int p = findMSB(M);
    sig = M << (31 - p);
    e = p - 149;
  } else {
    cls = HLO_CLASS_FINITE;
    sig = (M | 0x800000u) << 8;
    e = int(E) - 127;
  }
}

// Rounds sig * 2^(e - 31) to a multiple of the format's quantum, returning the magnitude bits
// (exponent field and mantissa; a carry out of the mantissa is the next binade), or 0xFFFFFFFF
// when the rounded magnitude exceeds max_bits.
uint hlo_codec_round_(int e, uint sig, int m, int emin, uint max_bits) {
  int et = max(e, emin);
  int shift = 31 - m + (et - e);  // bits of sig below the quantum, >= 21
  uint n;
  if (shift > 32) {
    n = 0u;  // below half the smallest subnormal
  } else if (shift == 32) {
    n = sig > 0x80000000u ? 1u : 0u;  // above half the smallest subnormal (a tie goes to 0)
  } else {
    n = sig >> shift;
    uint rest = sig & ((1u << shift) - 1u);
    uint halfway = 1u << (shift - 1);
    if (rest > halfway || (rest == halfway && (n & 1u) != 0u)) n += 1u;
  }
  // Normal values: (field - 1) << m plus the significand with its implicit bit; subnormals
  // (et == emin, n < 2^m) are just n.
  uint bits = (uint(et - emin) << m) + n;
  return bits > max_bits ? 0xFFFFFFFFu : bits;
}

uint hlo_codec_encode_(bool negative, int cls, int e, uint sig, int ebits, int m, int bias,
                       int kind) {
  uint sign = negative ? (1u << (ebits + m)) : 0u;
  uint exp_max = (1u << ebits) - 1u;
  uint man_mask = (1u << m) - 1u;
  uint all_ones = (exp_max << m) | man_mask;
  uint max_bits = kind == HLO_FMT_IEEE ? all_ones - (1u << m)
                : kind == HLO_FMT_FN   ? all_ones - 1u
                                       : all_ones;
  uint nan_bits = kind == HLO_FMT_FNUZ ? (1u << (ebits + m))
                : kind == HLO_FMT_IEEE ? sign | (exp_max << m) | (1u << (m - 1))
                                       : sign | all_ones;  // FN: NaN; NONAN: largest magnitude
  uint overflow = kind == HLO_FMT_IEEE    ? sign | (exp_max << m)
                : kind == HLO_FMT_NONAN ? sign | max_bits
                                          : nan_bits;
  if (cls == HLO_CLASS_NAN) return nan_bits;
  if (cls == HLO_CLASS_INF) return overflow;
  if (cls == HLO_CLASS_ZERO) return kind == HLO_FMT_FNUZ ? 0u : sign;
  uint magnitude = hlo_codec_round_(e, sig, m, 1 - bias, max_bits);
  if (magnitude == 0xFFFFFFFFu) return overflow;
  if (magnitude == 0u && kind == HLO_FMT_FNUZ) return 0u;
  return sign | magnitude;
}

// f8E8M0FNU: 2^(bits - 127); 0xFF is NaN. Values round to the nearer power of two in
// logarithm-free terms: [1, 1.5) * 2^k -> 2^k, [1.5, 2) * 2^k -> 2^(k+1).
uint hlo_codec_encode_e8m0_(bool negative, int cls, int e, uint sig) {
  if (cls == HLO_CLASS_ZERO) return 0u;
  if (cls != HLO_CLASS_FINITE || negative) return 0xFFu;
  int field = e + 127 + (sig >= 0xC0000000u ? 1 : 0);
  return field < 0 ? 0u : field >= 255 ? 0xFFu : uint(field);
}

float hlo_codec_decode_(uint bits, int ebits, int m, int bias, int kind) {
  bits &= (1u << (1 + ebits + m)) - 1u;
  uint sign = ((bits >> (ebits + m)) & 1u) << 31;
  uint exp_max = (1u << ebits) - 1u;
  uint man_mask = (1u << m) - 1u;
  uint E = (bits >> m) & exp_max;
  uint M = bits & man_mask;
  // NaNs are quiet and keep the sign and the payload's top bits (as hardware widens floats).
  uint nan = sign | 0x7FC00000u | (M << (23 - m));
  if (kind == HLO_FMT_FNUZ && sign != 0u && E == 0u && M == 0u) return uintBitsToFloat(0x7FC00000u);
  if (kind == HLO_FMT_IEEE && E == exp_max) return uintBitsToFloat(M == 0u ? sign | 0x7F800000u : nan);
  if (kind == HLO_FMT_FN && E == exp_max && M == man_mask) return uintBitsToFloat(nan);
  if (E == 0u) {
    if (M == 0u) return uintBitsToFloat(sign);
    int p = findMSB(M);                           // M * 2^(1 - bias - m), normalized
    int field = p + 1 - bias - m + 127;
    if (field <= 0) return uintBitsToFloat(sign | (M << (23 - m + (1 - bias + 126))));  // bf16
    return uintBitsToFloat(sign | (uint(field) << 23) | ((M << (23 - p)) & 0x7FFFFFu));
  }
  return uintBitsToFloat(sign | (uint(int(E) - bias + 127) << 23) | (M << (23 - m)));
}

float hlo_codec_decode_e8m0_(uint bits) {
  uint E = bits & 0xFFu;
  if (E == 255u) return uintBitsToFloat(0x7FC00000u);
  return uintBitsToFloat(E == 0u ? 0x00400000u : E << 23);  // 2^-127 is an f32 denormal
}

uint hlo_codec_encode_f32_(float v, int ebits, int m, int bias, int kind) {
  bool negative;
  int cls, e;
  uint sig;
  hlo_codec_split_f32_(v, negative, cls, e, sig);
  return hlo_codec_encode_(negative, cls, e, sig, ebits, m, bias, kind);
}

float hlo_decode_bf16(uint bits) { return hlo_codec_decode_(bits, 8, 7, 127, HLO_FMT_IEEE); }
float hlo_decode_f16(uint bits) { return hlo_codec_decode_(bits, 5, 10, 15, HLO_FMT_IEEE); }
float hlo_decode_f8e4m3fn(uint bits) { return hlo_codec_decode_(bits, 4, 3, 7, HLO_FMT_FN); }
float hlo_decode_f8e5m2(uint bits) { return hlo_codec_decode_(bits, 5, 2, 15, HLO_FMT_IEEE); }
float hlo_decode_f8e4m3fnuz(uint bits) { return hlo_codec_decode_(bits, 4, 3, 8, HLO_FMT_FNUZ); }
float hlo_decode_f8e5m2fnuz(uint bits) { return hlo_codec_decode_(bits, 5, 2, 16, HLO_FMT_FNUZ); }
float hlo_decode_f8e4m3b11fnuz(uint bits) { return hlo_codec_decode_(bits, 4, 3, 11, HLO_FMT_FNUZ); }
float hlo_decode_f8e4m3(uint bits) { return hlo_codec_decode_(bits, 4, 3, 7, HLO_FMT_IEEE); }
float hlo_decode_f8e3m4(uint bits) { return hlo_codec_decode_(bits, 3, 4, 3, HLO_FMT_IEEE); }
float hlo_decode_f8e8m0fnu(uint bits) { return hlo_codec_decode_e8m0_(bits); }
float hlo_decode_f6e2m3fn(uint bits) { return hlo_codec_decode_(bits, 2, 3, 1, HLO_FMT_NONAN); }
float hlo_decode_f6e3m2fn(uint bits) { return hlo_codec_decode_(bits, 3, 2, 3, HLO_FMT_NONAN); }
float hlo_decode_f4e2m1fn(uint bits) { return hlo_codec_decode_(bits, 2, 1, 1, HLO_FMT_NONAN); }

#include "hlo_precision_f32.glsl"
#include "hlo_float_codec_encoders.glsl"
#include "hlo_precision_end.glsl"

#endif  // HLO_FLOAT_CODEC_GLSL
