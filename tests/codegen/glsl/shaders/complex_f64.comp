#version 450
// hlo_complex_f64.glsl: two complex<f64> (eight words) in, one out (four words).
#extension GL_GOOGLE_include_directive : require
#include "kernel_io.glsl"
#include "hlo_complex_f64.glsl"

dvec2 run(dvec2 a, dvec2 b) {
#if KOP_BASE == 0
  return hlo_complex_multiply(a, b);
#elif KOP_BASE == 1
  return hlo_complex_divide(a, b);
#elif KOP_BASE == 2
  return dvec2(hlo_complex_abs(a), 0.0LF);
#elif KOP_BASE == 3
  return hlo_complex_sign(a);
#elif KOP_BASE == 4
  return hlo_complex_exponential(a);
#elif KOP_BASE == 5
  return hlo_complex_exponential_minus_one(a);
#elif KOP_BASE == 6
  return hlo_complex_log(a);
#elif KOP_BASE == 7
  return hlo_complex_log_plus_one(a);
#elif KOP_BASE == 8
  return hlo_complex_sqrt(a);
#elif KOP_BASE == 9
  return hlo_complex_rsqrt(a);
#elif KOP_BASE == 10
  return hlo_complex_cbrt(a);
#elif KOP_BASE == 11
  return hlo_complex_sine(a);
#elif KOP_BASE == 12
  return hlo_complex_cosine(a);
#elif KOP_BASE == 13
  return hlo_complex_tan(a);
#elif KOP_BASE == 14
  return hlo_complex_tanh(a);
#elif KOP_BASE == 15
  return hlo_complex_power(a, b);
#else
  return hlo_complex_logistic(a);
#endif
}

double word_double(uint i) { return packDouble2x32(uvec2(in_words[i], in_words[i + 1u])); }

void main() {
  FOR_EACH_ELEMENT(i) {
    dvec2 a = dvec2(word_double(8u * i), word_double(8u * i + 2u));
    dvec2 b = dvec2(word_double(8u * i + 4u), word_double(8u * i + 6u));
    dvec2 r = run(a, b);
    uvec2 re = unpackDouble2x32(r.x), im = unpackDouble2x32(r.y);
    out_words[4u * i] = re.x;
    out_words[4u * i + 1u] = re.y;
    out_words[4u * i + 2u] = im.x;
    out_words[4u * i + 3u] = im.y;
  }
}
