// Math: exponentials, logarithms, trigonometry, roots, rounding.
//
// Transcendentals and roots come from the GLSL library (hlo_math_f32/f64.glsl,
// hlo_complex_f32/f64.glsl: hlo_exponential, hlo_complex_log, ...), because drivers' built-ins
// are not accurate enough for every float type. Rounding to integers is the library's too
// (hlo_floor, hlo_ceil, hlo_round_nearest_*: on the bits), because Vulkan gives floor, ceil and
// roundEven no precision and drivers differ (see docs/exactness.md).
// Narrow floats compute in f32 and round back; f16 with shaderFloat16 computes in f32 and
// converts once.
#include <fmt/format.h>

#include "codegen/elemental/emit_util.h"
#include "codegen/elemental/op_emitters.h"

namespace vkhlo::codegen {
namespace {

using ir::Operation;

struct MathFn {
  ir::OpCode code;
  const char* real;     // hlo_* for float/double, or nullptr
  const char* complex;  // hlo_complex_* for vec2/dvec2, or nullptr
};

constexpr MathFn kMath[] = {
    {ir::OpCode::kExponential, "hlo_exponential", "hlo_complex_exponential"},
    {ir::OpCode::kExponentialMinusOne, "hlo_exponential_minus_one", "hlo_complex_exponential_minus_one"},
    {ir::OpCode::kLog, "hlo_log", "hlo_complex_log"},
    {ir::OpCode::kLogPlusOne, "hlo_log_plus_one", "hlo_complex_log_plus_one"},
    {ir::OpCode::kLogistic, "hlo_logistic", "hlo_complex_logistic"},
    {ir::OpCode::kSine, "hlo_sine", "hlo_complex_sine"},
    {ir::OpCode::kCosine, "hlo_cosine", "hlo_complex_cosine"},
    {ir::OpCode::kTan, "hlo_tan", "hlo_complex_tan"},
    {ir::OpCode::kTanh, "hlo_tanh", "hlo_complex_tanh"},
    {ir::OpCode::kSqrt, "hlo_sqrt", "hlo_complex_sqrt"},
    {ir::OpCode::kRsqrt, "hlo_rsqrt", "hlo_complex_rsqrt"},
    {ir::OpCode::kCbrt, "hlo_cbrt", "hlo_complex_cbrt"},
    {ir::OpCode::kRoundNearestAfz, "hlo_round_nearest_afz", nullptr},
    {ir::OpCode::kRoundNearestEven, "hlo_round_nearest_even", nullptr},
    {ir::OpCode::kFloor, "hlo_floor", nullptr},
    {ir::OpCode::kCeil, "hlo_ceil", nullptr},
};

const MathFn* FindMath(ir::OpCode code) {
  for (const MathFn& fn : kMath) {
    if (fn.code == code) return &fn;
  }
  return nullptr;
}

StatusOr<Expr> EmitUnaryMath(ElementalEmitter& em, const Operation& op, const Index& index) {
  const MathFn* fn = FindMath(op.code());
  VKHLO_ASSIGN_OR_RETURN(Expr a, ComputeOperand(em, op, 0, index));
  const TypeFacts& f = em.Facts(a.type);
  if (IsComplexKind(f.kind)) {
    if (fn->complex == nullptr) return em.OpError(op, "does not take complex operands");
    em.IncludeMath(f.kind);
    return em.Exact(a.type, fmt::format("{}({})", fn->complex, a.code));
  }
  if (!IsRealFloatKind(f.kind)) {
    return em.OpError(op, fmt::format("does not take {} operands", ir::ElementTypeName(a.type)));
  }
  return RealLibraryCall(em, fn->real, a);
}

StatusOr<Expr> EmitAtan2(ElementalEmitter& em, const Operation& op, const Index& index) {
  VKHLO_ASSIGN_OR_RETURN(Expr y, ComputeOperand(em, op, 0, index));
  VKHLO_ASSIGN_OR_RETURN(Expr x, ComputeOperand(em, op, 1, index));
  const TypeFacts& f = em.Facts(y.type);
  if (IsComplexKind(f.kind)) {
    // -i log((x + iy) / sqrt(x^2 + y^2)), as the interpreter defines complex atan2.
    em.IncludeMath(f.kind);
    const std::string t(f.glsl);
    std::string i_y = em.Var(t, fmt::format("{0}(-{1}.y, {1}.x)", t, y.code));
    std::string num = em.Var(t, fmt::format("{} + {}", x.code, i_y));
    std::string den = em.Var(t, fmt::format("hlo_complex_sqrt(hlo_complex_multiply({0}, {0}) + hlo_complex_multiply({1}, {1}))",
                                            x.code, y.code));
    std::string l = em.Var(t, fmt::format("hlo_complex_log(hlo_complex_divide({}, {}))", num, den));
    return em.Exact(y.type, fmt::format("{0}({1}.y, -{1}.x)", t, l));
  }
  if (!IsRealFloatKind(f.kind)) {
    return em.OpError(op, fmt::format("does not take {} operands", ir::ElementTypeName(y.type)));
  }
  return RealLibraryCall(em, "hlo_atan2", y, &x);
}

}  // namespace

void RegisterMathEmitters(OpEmitterTable& t) {
  for (const MathFn& fn : kMath) t.Register(fn.code, EmitUnaryMath);
  t.Register(ir::OpCode::kAtan2, EmitAtan2);
}

}  // namespace vkhlo::codegen
