// Closes the precision that hlo_precision_f32.glsl or hlo_precision_f64.glsl opened, so the
// next instance (or a kernel's own code) starts without its macros.
//
// Has no include guard: every instantiation includes it once.
//
// Needs: GLSL 4.50 core only.
#ifndef HLO_PRECISION
#error hlo_precision_end.glsl: no precision is open
#endif
#undef HLO_PRECISION
#undef HLO_F
#undef HLO_F2
#undef HLO_LIT
#undef HLO_PER_PRECISION
#undef HLO_FD
#undef HLO_FN_
#undef HLO_INF_
#undef HLO_NAN_
#undef HLO_DW_ADD_
#undef HLO_DW_MUL_
#undef HLO_DW_MUL_W_
#undef HLO_LOG_DW_
