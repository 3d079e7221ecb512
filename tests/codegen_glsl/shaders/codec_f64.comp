#version 450
// Ops 0..12 decode format op to f64 (one uint in, two words out); ops 100..112 encode from f64
// (two words in, one out).
#extension GL_GOOGLE_include_directive : require
#include "kernel_io.glsl"
#include "hlo_float_codec_f64.glsl"

double decode(uint fmt, uint b) {
  switch (fmt) {
    case 0u: return hlo_decode_bf16_f64(b);
    case 1u: return hlo_decode_f16_f64(b);
    case 2u: return hlo_decode_f8e4m3fn_f64(b);
    case 3u: return hlo_decode_f8e5m2_f64(b);
    case 4u: return hlo_decode_f8e4m3fnuz_f64(b);
    case 5u: return hlo_decode_f8e5m2fnuz_f64(b);
    case 6u: return hlo_decode_f8e4m3b11fnuz_f64(b);
    case 7u: return hlo_decode_f8e4m3_f64(b);
    case 8u: return hlo_decode_f8e3m4_f64(b);
    case 9u: return hlo_decode_f8e8m0fnu_f64(b);
    case 10u: return hlo_decode_f6e2m3fn_f64(b);
    case 11u: return hlo_decode_f6e3m2fn_f64(b);
    default: return hlo_decode_f4e2m1fn_f64(b);
  }
}

uint encode(uint fmt, double v) {
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
    if (kOp >= 100u) {
      out_words[i] = encode(kOp - 100u, packDouble2x32(uvec2(in_words[2u * i], in_words[2u * i + 1u])));
    } else {
      uvec2 d = unpackDouble2x32(decode(kOp, in_words[i]));
      out_words[2u * i] = d.x;
      out_words[2u * i + 1u] = d.y;
    }
  }
}
