// Opens an f32 instantiation of a library source written once for both precisions (such as
// hlo_complex.glsl, included right after this file; hlo_precision_end.glsl closes it). The
// source spells its types, literals and the names that differ between the twins with these
// macros, so the f32 instance preprocesses to the text an f32-only file would have:
//
//   HLO_PRECISION                 32 (for `#if` where the algorithm itself differs)
//   HLO_F, HLO_F2                 float, vec2 (a double-word or a complex number)
//   HLO_LIT(x)                    x, a literal exact in f32 (f64 widens it exactly)
//   HLO_PER_PRECISION(a32, a64)   a32: text that differs by precision, each spelled as its
//                                 precision wants (a literal of the range, 700.0LF in a64)
//   HLO_FD(NAME)                  NAME_F: a constant of this precision
//   HLO_FN_(NAME)                 NAME_f32_: a helper whose two versions are separate code
//   HLO_INF_, HLO_NAN_            hlo_inf_, hlo_nan_ (hlo_basic_f32.glsl)
//   HLO_DW_ADD_, HLO_DW_MUL_,     hlo_ff_add_, hlo_ff_mul_, hlo_ff_mul_f_: double-word
//   HLO_DW_MUL_W_                 (float-float) sum, product, product with a word
//                                 (hlo_double_word.glsl)
//   HLO_LOG_DW_                   hlo_log_ff_ (hlo_exp_log_f32.glsl)
//
// Has no include guard: every instantiation includes it once.
//
// Needs: GLSL 4.50 core only (32-bit types).
#ifdef HLO_PRECISION
#error hlo_precision_f32.glsl: a precision is open already
#endif
#define HLO_PRECISION 32
#define HLO_F float
#define HLO_F2 vec2
#define HLO_LIT(x) x
#define HLO_PER_PRECISION(a32, a64) a32
#define HLO_FD(NAME) NAME##_F
#define HLO_FN_(NAME) NAME##_f32_
#define HLO_INF_ hlo_inf_
#define HLO_NAN_ hlo_nan_
#define HLO_DW_ADD_ hlo_ff_add_
#define HLO_DW_MUL_ hlo_ff_mul_
#define HLO_DW_MUL_W_ hlo_ff_mul_f_
#define HLO_LOG_DW_ hlo_log_ff_
