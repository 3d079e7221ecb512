// The f32 math library that generated shaders include: every function of
//   hlo_basic_f32.glsl    hlo_divide hlo_sqrt hlo_rsqrt hlo_remainder hlo_round_nearest_afz
//                         hlo_round_nearest_even hlo_is_finite
//   hlo_exp_log_f32.glsl  hlo_exponential hlo_exponential_minus_one hlo_log hlo_log_plus_one
//                         hlo_logistic hlo_tanh
//   hlo_trig_f32.glsl     hlo_sine hlo_cosine hlo_tan hlo_atan2
//   hlo_pow_f32.glsl      hlo_power hlo_cbrt
// with exact IEEE special cases (NaN in, NaN out; signed zeros, infinities, overflow and
// underflow, denormal inputs and results decided on the bits). GLSL's own exp/log/sin/pow are
// not used: Vulkan allows them errors of several ULP (and far more for large arguments).
// Accuracy measured against host references is in docs/design.md ("GLSL runtime library").
//
// Needs: GLSL 4.50 core only (32-bit types): every Vulkan device.
#ifndef HLO_MATH_F32_GLSL
#define HLO_MATH_F32_GLSL

#include "hlo_basic_f32.glsl"
#include "hlo_exp_log_f32.glsl"
#include "hlo_trig_f32.glsl"
#include "hlo_pow_f32.glsl"

#endif  // HLO_MATH_F32_GLSL
