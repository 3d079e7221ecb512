// The encoders of every narrow float format from a float or a double (hlo_encode_<fmt>), written
// once: the table of each format's exponent bits, mantissa bits, bias and kind of special values.
// hlo_float_codec.glsl and hlo_float_codec_f64.glsl include this file between
// hlo_precision_f32/f64.glsl and hlo_precision_end.glsl, after their own splitting and rounding
// (hlo_codec_split_f32_/f64_, hlo_codec_encode_f32_/f64_), which differ: a double's bits are two
// words.
//
// Has no include guard: each of the two codec files includes it once, inside its own guard.
#ifndef HLO_PRECISION
#error hlo_float_codec_encoders.glsl is included through hlo_float_codec(_f64).glsl
#endif

uint hlo_encode_bf16(HLO_F v) { return HLO_FN_(hlo_codec_encode)(v, 8, 7, 127, HLO_FMT_IEEE); }
uint hlo_encode_f16(HLO_F v) { return HLO_FN_(hlo_codec_encode)(v, 5, 10, 15, HLO_FMT_IEEE); }
uint hlo_encode_f8e4m3fn(HLO_F v) { return HLO_FN_(hlo_codec_encode)(v, 4, 3, 7, HLO_FMT_FN); }
uint hlo_encode_f8e5m2(HLO_F v) { return HLO_FN_(hlo_codec_encode)(v, 5, 2, 15, HLO_FMT_IEEE); }
uint hlo_encode_f8e4m3fnuz(HLO_F v) { return HLO_FN_(hlo_codec_encode)(v, 4, 3, 8, HLO_FMT_FNUZ); }
uint hlo_encode_f8e5m2fnuz(HLO_F v) { return HLO_FN_(hlo_codec_encode)(v, 5, 2, 16, HLO_FMT_FNUZ); }
uint hlo_encode_f8e4m3b11fnuz(HLO_F v) {
  return HLO_FN_(hlo_codec_encode)(v, 4, 3, 11, HLO_FMT_FNUZ);
}
uint hlo_encode_f8e4m3(HLO_F v) { return HLO_FN_(hlo_codec_encode)(v, 4, 3, 7, HLO_FMT_IEEE); }
uint hlo_encode_f8e3m4(HLO_F v) { return HLO_FN_(hlo_codec_encode)(v, 3, 4, 3, HLO_FMT_IEEE); }
uint hlo_encode_f8e8m0fnu(HLO_F v) {
  bool negative;
  int cls, e;
  uint sig;
  HLO_FN_(hlo_codec_split)(v, negative, cls, e, sig);
  return hlo_codec_encode_e8m0_(negative, cls, e, sig);
}
uint hlo_encode_f6e2m3fn(HLO_F v) { return HLO_FN_(hlo_codec_encode)(v, 2, 3, 1, HLO_FMT_NONAN); }
uint hlo_encode_f6e3m2fn(HLO_F v) { return HLO_FN_(hlo_codec_encode)(v, 3, 2, 3, HLO_FMT_NONAN); }
uint hlo_encode_f4e2m1fn(HLO_F v) { return HLO_FN_(hlo_codec_encode)(v, 2, 1, 1, HLO_FMT_NONAN); }
