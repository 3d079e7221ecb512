// complex<f32> helpers (vec2 = real, imaginary): hlo_complex.glsl (which see) for f32.
//
// Needs: GLSL 4.50 core only (32-bit types).
#ifndef HLO_COMPLEX_F32_GLSL
#define HLO_COMPLEX_F32_GLSL

#include "hlo_math_f32.glsl"

#include "hlo_precision_f32.glsl"
#include "hlo_complex.glsl"
#include "hlo_precision_end.glsl"

#endif  // HLO_COMPLEX_F32_GLSL
