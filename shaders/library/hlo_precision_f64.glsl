// Opens an f64 instantiation of a library source written once for both precisions (see
// hlo_precision_f32.glsl for the macros; hlo_precision_end.glsl closes it). GLSL cannot paste
// the LF suffix onto a literal, so HLO_LIT(x) is double(x): the same constant as xLF wherever x
// is exact in f32, which every HLO_LIT argument is (tests/codegen/glsl/glsl_library_test.cc; the
// spec rounds an unsuffixed literal to f32 first, though glslang keeps it exact);
// other constants are written out per precision with HLO_PER_PRECISION(a32, a64LF).
//
// Has no include guard: every instantiation includes it once.
//
// Needs: the Float64 capability (shaderFloat64).
#ifdef HLO_PRECISION
#error hlo_precision_f64.glsl: a precision is open already
#endif
#define HLO_PRECISION 64
#define HLO_F double
#define HLO_F2 dvec2
#define HLO_LIT(x) double(x)
#define HLO_PER_PRECISION(a32, a64) a64
#define HLO_FD(NAME) NAME##_D
#define HLO_FN_(NAME) NAME##_f64_
#define HLO_INF_ hlo_inf_f64_
#define HLO_NAN_ hlo_nan_f64_
#define HLO_DW_ADD_ hlo_dd_add_
#define HLO_DW_MUL_ hlo_dd_mul_
#define HLO_DW_MUL_W_ hlo_dd_mul_d_
#define HLO_LOG_DW_ hlo_log_dd_
