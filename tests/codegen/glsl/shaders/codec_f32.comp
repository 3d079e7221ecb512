#version 450
// Ops 0..12 decode format op (one uint in, f32 bits out); ops 100..112 encode (f32 bits in).
#extension GL_GOOGLE_include_directive : require
#include "kernel_io.glsl"
#include "hlo_float_codec.glsl"

float decode(uint fmt, uint b) {
#if KOP_BASE == 0
  return hlo_decode_bf16(b);
#elif KOP_BASE == 1
  return hlo_decode_f16(b);
#elif KOP_BASE == 2
  return hlo_decode_f8e4m3fn(b);
#elif KOP_BASE == 3
  return hlo_decode_f8e5m2(b);
#elif KOP_BASE == 4
  return hlo_decode_f8e4m3fnuz(b);
#elif KOP_BASE == 5
  return hlo_decode_f8e5m2fnuz(b);
#elif KOP_BASE == 6
  return hlo_decode_f8e4m3b11fnuz(b);
#elif KOP_BASE == 7
  return hlo_decode_f8e4m3(b);
#elif KOP_BASE == 8
  return hlo_decode_f8e3m4(b);
#elif KOP_BASE == 9
  return hlo_decode_f8e8m0fnu(b);
#elif KOP_BASE == 10
  return hlo_decode_f6e2m3fn(b);
#elif KOP_BASE == 11
  return hlo_decode_f6e3m2fn(b);
#else
  return hlo_decode_f4e2m1fn(b);
#endif
}

uint encode(uint fmt, float v) {
#if KOP_BASE == 0
  return hlo_encode_bf16(v);
#elif KOP_BASE == 1
  return hlo_encode_f16(v);
#elif KOP_BASE == 2
  return hlo_encode_f8e4m3fn(v);
#elif KOP_BASE == 3
  return hlo_encode_f8e5m2(v);
#elif KOP_BASE == 4
  return hlo_encode_f8e4m3fnuz(v);
#elif KOP_BASE == 5
  return hlo_encode_f8e5m2fnuz(v);
#elif KOP_BASE == 6
  return hlo_encode_f8e4m3b11fnuz(v);
#elif KOP_BASE == 7
  return hlo_encode_f8e4m3(v);
#elif KOP_BASE == 8
  return hlo_encode_f8e3m4(v);
#elif KOP_BASE == 9
  return hlo_encode_f8e8m0fnu(v);
#elif KOP_BASE == 10
  return hlo_encode_f6e2m3fn(v);
#elif KOP_BASE == 11
  return hlo_encode_f6e3m2fn(v);
#else
  return hlo_encode_f4e2m1fn(v);
#endif
}

void main() {
  FOR_EACH_ELEMENT(i) {
    uint w = in_words[i];
    out_words[i] = kOp >= 100u ? encode(kOp - 100u, uintBitsToFloat(w)) : floatBitsToUint(decode(kOp, w));
  }
}
