// The arithmetic type of the linear-algebra kernels (triangular_solve.comp, cholesky.comp).
//
// As the interpreter (src/interp/library_linalg.cc), they compute in f32 for f32 and narrower
// floats, f64 for f64, and complex<f32>/complex<f64> likewise: T is float, double, vec2 or
// dvec2, R its real type (defines from codegen/linalg/linalg_glsl.cc, with LINALG_COMPLEX,
// LINALG_WIDE, and HAS_FLOAT64: the device has shaderFloat64). Functions:
//   T t_zero(), t_one(), t_conj(T a), t_real(R r); R t_re(T a)
//   T t_muladd(T acc, T a, T b)  acc + a * b rounded twice (products, then sums)
//   T t_fma(T acc, T a, T b)     acc + a * b fused for reals, the interpreter's MulAdd for complex
//   T t_div(T a, T b)            correctly rounded (hlo_divide / hlo_complex_divide)
//   LINALG_ACCESSORS(P, B)       defines T P_ld(uint i) and void P_st(uint i, T v): element i,
//                                in T units, of the uint[] binding B (P_ld(i) / P_st(i, v))
// The GLSL library's hlo_basic / hlo_complex file of the width is included before.

#if !LINALG_COMPLEX && !LINALG_WIDE
#define LINALG_ACCESSORS(P, B) \
  float P##_ld(uint i) { return uintBitsToFloat(B[i]); } \
  void P##_st(uint i, float v) { B[i] = floatBitsToUint(v); }
#elif !LINALG_COMPLEX
#define LINALG_ACCESSORS(P, B) \
  double P##_ld(uint i) { return packDouble2x32(uvec2(B[2u * i], B[2u * i + 1u])); } \
  void P##_st(uint i, double v) { uvec2 w = unpackDouble2x32(v); B[2u * i] = w.x; B[2u * i + 1u] = w.y; }
#elif !LINALG_WIDE
#define LINALG_ACCESSORS(P, B) \
  vec2 P##_ld(uint i) { return vec2(uintBitsToFloat(B[2u * i]), uintBitsToFloat(B[2u * i + 1u])); } \
  void P##_st(uint i, vec2 v) { B[2u * i] = floatBitsToUint(v.x); B[2u * i + 1u] = floatBitsToUint(v.y); }
#else
#define LINALG_ACCESSORS(P, B) \
  dvec2 P##_ld(uint i) { return dvec2(packDouble2x32(uvec2(B[4u * i], B[4u * i + 1u])), \
                                      packDouble2x32(uvec2(B[4u * i + 2u], B[4u * i + 3u]))); } \
  void P##_st(uint i, dvec2 v) { uvec2 a = unpackDouble2x32(v.x), b = unpackDouble2x32(v.y); \
    B[4u * i] = a.x; B[4u * i + 1u] = a.y; B[4u * i + 2u] = b.x; B[4u * i + 3u] = b.y; }
#endif

T t_zero() { return T(0); }
#if LINALG_COMPLEX
T t_one() { return T(R(1), R(0)); }
// std::complex's a * b + acc as the interpreter's MulAdd: four products, then sums.
T t_mul(T a, T b) { precise R rr = a.x * b.x; precise R ii = a.y * b.y; precise R ri = a.x * b.y; precise R ir = a.y * b.x; precise T r = T(rr - ii, ri + ir); return r; }
T t_muladd(T acc, T a, T b) { precise T r = acc + t_mul(a, b); return r; }
T t_fma(T acc, T a, T b) { return t_muladd(acc, a, b); }
T t_div(T a, T b) { return hlo_complex_divide(a, b); }
T t_conj(T a) { return T(a.x, -a.y); }
T t_real(R r) { return T(r, R(0)); }
R t_re(T a) { return a.x; }
#else
T t_one() { return T(1); }
T t_muladd(T acc, T a, T b) { precise T p = a * b; precise T r = acc + p; return r; }
#if !LINALG_WIDE && HAS_FLOAT64
// The interpreter's f32 fused multiply-add goes through double (the product is exact there);
// Vulkan's fma may be unfused, so do the same where the device has doubles.
float t_fma(float acc, float a, float b) { precise double r = double(a) * double(b) + double(acc); return float(r); }
#else
// An error-free product and sum (Vulkan's fma may be unfused), then one rounding of the small
// terms: the fused result except in rare double-rounding cases.
#if LINALG_WIDE
#define LINALG_FMA_LIMIT 1e290
#else
#define LINALG_FMA_LIMIT 1e36
#endif
T t_fma(T acc, T a, T b) {
  precise T p = a * b;
  if (!hlo_is_finite(p) || !hlo_is_finite(acc) || abs(a) > LINALG_FMA_LIMIT || abs(b) > LINALG_FMA_LIMIT) { precise T r = acc + p; return r; }
#if LINALG_WIDE
  dvec2 q = hlo_two_prod_(a, b); dvec2 s = hlo_two_sum_(acc, q.x);
#else
  vec2 q = hlo_two_prod_(a, b); vec2 s = hlo_two_sum_(acc, q.x);
#endif
  precise T r = s.x + (s.y + q.y); return r;
}
#endif
T t_div(T a, T b) { return hlo_divide(a, b); }
T t_conj(T a) { return a; }
T t_real(T r) { return r; }
T t_re(T a) { return a; }
#endif

LINALG_ACCESSORS(ws, ws)
