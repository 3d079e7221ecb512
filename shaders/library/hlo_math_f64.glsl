// The f64 math library that generated shaders include: the double overloads of every function
// of hlo_math_f32.glsl (which this file includes, so both overload sets are available):
//   hlo_basic_f64.glsl    hlo_divide hlo_sqrt hlo_rsqrt hlo_remainder hlo_round_nearest_afz
//                         hlo_round_nearest_even hlo_is_finite
//   hlo_exp_log_f64.glsl  hlo_exponential hlo_exponential_minus_one hlo_log hlo_log_plus_one
//                         hlo_logistic hlo_tanh
//   hlo_trig_f64.glsl     hlo_sine hlo_cosine hlo_tan hlo_atan2
//   hlo_pow_f64.glsl      hlo_power hlo_cbrt
// GLSL has no double transcendentals at all; these use only +, -, *, the bit patterns
// (packDouble2x32, so no Int64 capability) and the correctly rounded hlo_divide / hlo_sqrt.
//
// Needs: the Float64 capability (shaderFloat64).
#ifndef HLO_MATH_F64_GLSL
#define HLO_MATH_F64_GLSL

#include "hlo_math_f32.glsl"
#include "hlo_basic_f64.glsl"
#include "hlo_exp_log_f64.glsl"
#include "hlo_trig_f64.glsl"
#include "hlo_pow_f64.glsl"

#endif  // HLO_MATH_F64_GLSL
