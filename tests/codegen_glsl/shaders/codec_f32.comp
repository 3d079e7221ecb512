#version 450
// Ops 0..12 decode format op (one uint in, f32 bits out); ops 100..112 encode (f32 bits in).
#extension GL_GOOGLE_include_directive : require
#include "kernel_io.glsl"
#include "hlo_float_codec.glsl"

float decode(uint fmt, uint b) {
  switch (fmt) {
    case 0u: return hlo_decode_bf16(b);
    case 1u: return hlo_decode_f16(b);
    case 2u: return hlo_decode_f8e4m3fn(b);
    case 3u: return hlo_decode_f8e5m2(b);
    case 4u: return hlo_decode_f8e4m3fnuz(b);
    case 5u: return hlo_decode_f8e5m2fnuz(b);
    case 6u: return hlo_decode_f8e4m3b11fnuz(b);
    case 7u: return hlo_decode_f8e4m3(b);
    case 8u: return hlo_decode_f8e3m4(b);
    case 9u: return hlo_decode_f8e8m0fnu(b);
    case 10u: return hlo_decode_f6e2m3fn(b);
    case 11u: return hlo_decode_f6e3m2fn(b);
    default: return hlo_decode_f4e2m1fn(b);
  }
}

uint encode(uint fmt, float v) {
  switch (fmt) {
    case 0u: return hlo_encode_bf16(v);
    case 1u: return hlo_encode_f16(v);
    case 2u: return hlo_encode_f8e4m3fn(v);
    case 3u: return hlo_encode_f8e5m2(v);
    case 4u: return hlo_encode_f8e4m3fnuz(v);
    case 5u: return hlo_encode_f8e5m2fnuz(v);
    case 6u: return hlo_encode_f8e4m3b11fnuz(v);
    case 7u: return hlo_encode_f8e4m3(v);
    case 8u: return hlo_encode_f8e3m4(v);
    case 9u: return hlo_encode_f8e8m0fnu(v);
    case 10u: return hlo_encode_f6e2m3fn(v);
    case 11u: return hlo_encode_f6e3m2fn(v);
    default: return hlo_encode_f4e2m1fn(v);
  }
}

void main() {
  FOR_EACH_ELEMENT(i) {
    uint w = in_words[i];
    out_words[i] = kOp >= 100u ? encode(kOp - 100u, uintBitsToFloat(w)) : floatBitsToUint(decode(kOp, w));
  }
}
