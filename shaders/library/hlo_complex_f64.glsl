// complex<f64> helpers (dvec2 = real, imaginary): hlo_complex.glsl (which see) for f64, the
// double overloads of every function of hlo_complex_f32.glsl (which it includes).
//
// Needs: the Float64 capability (shaderFloat64).
#ifndef HLO_COMPLEX_F64_GLSL
#define HLO_COMPLEX_F64_GLSL

#include "hlo_complex_f32.glsl"
#include "hlo_math_f64.glsl"

#include "hlo_precision_f64.glsl"
#include "hlo_complex.glsl"
#include "hlo_precision_end.glsl"

#endif  // HLO_COMPLEX_F64_GLSL
