#version 450
// Ops 0..12 decode format op to f64 (one uint in, two words out); ops 100..112 encode from f64
// (two words in, one out).
#extension GL_GOOGLE_include_directive : require
#include "kernel_io.glsl"
#include "hlo_float_codec_f64.glsl"

double decode(uint fmt, uint b) {
#if KOP_BASE == 0
  return hlo_decode_bf16_f64(b);
#elif KOP_BASE == 1
  return hlo_decode_f16_f64(b);
#elif KOP_BASE == 2
  return hlo_decode_f8e4m3fn_f64(b);
#elif KOP_BASE == 3
  return hlo_decode_f8e5m2_f64(b);
#elif KOP_BASE == 4
  return hlo_decode_f8e4m3fnuz_f64(b);
#elif KOP_BASE == 5
  return hlo_decode_f8e5m2fnuz_f64(b);
#elif KOP_BASE == 6
  return hlo_decode_f8e4m3b11fnuz_f64(b);
#elif KOP_BASE == 7
  return hlo_decode_f8e4m3_f64(b);
#elif KOP_BASE == 8
  return hlo_decode_f8e3m4_f64(b);
#elif KOP_BASE == 9
  return hlo_decode_f8e8m0fnu_f64(b);
#elif KOP_BASE == 10
  return hlo_decode_f6e2m3fn_f64(b);
#elif KOP_BASE == 11
  return hlo_decode_f6e3m2fn_f64(b);
#else
  return hlo_decode_f4e2m1fn_f64(b);
#endif
}

uint encode(uint fmt, double v) {
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
    if (kOp >= 100u) {
      out_words[i] = encode(kOp - 100u, packDouble2x32(uvec2(in_words[2u * i], in_words[2u * i + 1u])));
    } else {
      uvec2 d = unpackDouble2x32(decode(kOp, in_words[i]));
      out_words[2u * i] = d.x;
      out_words[2u * i + 1u] = d.y;
    }
  }
}
