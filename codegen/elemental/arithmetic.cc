// Arithmetic: add, subtract, multiply, divide, remainder, power, maximum, minimum, clamp,
// negate, abs, sign.
//
// Integers follow the interpreter (src/interp/elementwise_ops.cc) bit for bit: wraparound,
// x / 0 = -1 (all bits), INT_MIN / -1 = INT_MIN, x % 0 = x, INT_MIN % -1 = 0. GLSL's signed
// division and remainder are not defined for negative operands on every driver, so signed
// division goes through magnitudes. Values of narrow integer types are held sign- or
// zero-extended in 32 bits, so the 32-bit helpers serve them and the result wraps to the width.
//
// Floats: +, -, * are correctly rounded in Vulkan; division, remainder and power come from the
// GLSL library (hlo_divide, ...), since OpFDiv may be off by 2.5 ulp. maximum/minimum propagate
// NaN and order -0 below +0.
#include <fmt/format.h>

#include "codegen/elemental/emit_util.h"
#include "codegen/elemental/op_emitters.h"

namespace vkhlo::codegen {
namespace {

using ir::Operation;

constexpr const char* kSignedDivide = R"(
$T hlo_div_$S($T a, $T b) {
  if (b == $T(0)) return $T(-1);
  if (b == $T(-1)) return $T(0) - a;
  $U ua = a < $T(0) ? $U(0) - $U(a) : $U(a);
  $U ub = b < $T(0) ? $U(0) - $U(b) : $U(b);
  $T q = $T(ua / ub);
  return (a < $T(0)) != (b < $T(0)) ? $T(0) - q : q;
})";

constexpr const char* kSignedRemainder = R"(
$T hlo_rem_$S($T a, $T b) {
  if (b == $T(0)) return a;
  if (b == $T(-1)) return $T(0);
  $U ua = a < $T(0) ? $U(0) - $U(a) : $U(a);
  $U ub = b < $T(0) ? $U(0) - $U(b) : $U(b);
  $T r = $T(ua % ub);
  return a < $T(0) ? $T(0) - r : r;
})";

constexpr const char* kUnsignedDivide = R"(
$T hlo_div_$S($T a, $T b) { return b == $T(0) ? ~$T(0) : a / b; })";

constexpr const char* kUnsignedRemainder = R"(
$T hlo_rem_$S($T a, $T b) { return b == $T(0) ? a : a % b; })";

// Exponentiation by squaring in the unsigned type (wrapping); a negative exponent leaves only
// |base| = 1 non-zero.
constexpr const char* kSignedPower = R"(
$T hlo_ipow_$S($T a, $T b) {
  if (b < $T(0)) {
    if (a == $T(1)) return a;
    if (a == $T(-1)) return ((b & $T(1)) != $T(0)) ? a : $T(1);
    return $T(0);
  }
  $U base = $U(a), e = $U(b), r = $U(1);
  while (e != $U(0)) {
    if ((e & $U(1)) != $U(0)) r *= base;
    base *= base;
    e >>= 1;
  }
  return $T(r);
})";

constexpr const char* kUnsignedPower = R"(
$T hlo_ipow_$S($T a, $T b) {
  $T base = a, e = b, r = $T(1);
  while (e != $T(0)) {
    if ((e & $T(1)) != $T(0)) r *= base;
    base *= base;
    e >>= 1;
  }
  return r;
})";

// IEEE maximum/minimum: NaN in, NaN out; -0 < +0. $SIGN_A is true for a set sign bit of a,
// $NAN_A / $NAN_B for a NaN a / b (or a NaN part of a complex a / b): tests on the bits, since a
// driver may fold the isnan() built-in to false (without SignedZeroInfNanPreserve, Vulkan lets
// it assume there are no NaNs).
constexpr const char* kFloatMax = R"(
$T hlo_max_$S($T a, $T b) {
  if ($NAN_A) return a;
  if ($NAN_B) return b;
  if (a == b) return $SIGN_A ? b : a;
  return a > b ? a : b;
})";

constexpr const char* kFloatMin = R"(
$T hlo_min_$S($T a, $T b) {
  if ($NAN_A) return a;
  if ($NAN_B) return b;
  if (a == b) return $SIGN_A ? a : b;
  return a < b ? a : b;
})";

// Complex values order lexicographically; a value with a NaN part wins as a NaN would.
constexpr const char* kComplexMax = R"(
$T hlo_max_$S($T a, $T b) {
  if ($NAN_A) return a;
  if ($NAN_B) return b;
  bool a_larger = a.x == b.x ? a.y > b.y : a.x > b.x;
  return a_larger ? a : b;
})";

constexpr const char* kComplexMin = R"(
$T hlo_min_$S($T a, $T b) {
  if ($NAN_A) return a;
  if ($NAN_B) return b;
  bool a_smaller = a.x == b.x ? a.y < b.y : a.x < b.x;
  return a_smaller ? a : b;
})";

std::string SignBitExpr(const TypeFacts& f, const std::string& x) {
  switch (f.kind) {
    case ComputeKind::kDouble: return fmt::format("((unpackDouble2x32({}).y >> 31) != 0u)", x);
    case ComputeKind::kHalf: return fmt::format("((floatBitsToUint(float({})) >> 31) != 0u)", x);
    default: return fmt::format("((floatBitsToUint({}) >> 31) != 0u)", x);
  }
}

// The helper for an integer operation of `f`'s kind (signed/unsigned, 32/64-bit).
std::string IntHelper(ElementalEmitter& em, const TypeFacts& f, const std::string& name, const char* signed_text,
                      const char* unsigned_text) {
  const bool is_signed = IsSignedKind(f.kind);
  const bool wide = f.kind == ComputeKind::kInt64 || f.kind == ComputeKind::kUint64;
  const std::string unsigned_type = wide ? "uint64_t" : "uint";
  return TypedHelper(em, name, f, Instantiate(is_signed ? signed_text : unsigned_text, {{"U", unsigned_type}}));
}

std::string MaxMinHelper(ElementalEmitter& em, const TypeFacts& f, bool max) {
  const std::string name = max ? "hlo_max" : "hlo_min";
  if (IsComplexKind(f.kind)) {
    std::string text = Instantiate(max ? kComplexMax : kComplexMin, {{"NAN_A", NanTestExpr(f, "a")}, {"NAN_B", NanTestExpr(f, "b")}});
    return TypedHelper(em, name, f, text);
  }
  std::string text = Instantiate(max ? kFloatMax : kFloatMin, {{"NAN_A", NanTestExpr(f, "a")},
                                                              {"NAN_B", NanTestExpr(f, "b")},
                                                              {"SIGN_A", SignBitExpr(f, "a")}});
  return TypedHelper(em, name, f, text);
}

using BinaryFn = StatusOr<Expr> (*)(ElementalEmitter&, const Operation&, const Expr&, const Expr&);

template <BinaryFn fn>
StatusOr<Expr> EmitBinary(ElementalEmitter& em, const Operation& op, const Index& index) {
  VKHLO_ASSIGN_OR_RETURN(Expr a, ComputeOperand(em, op, 0, index));
  VKHLO_ASSIGN_OR_RETURN(Expr b, ComputeOperand(em, op, 1, index));
  return fn(em, op, a, b);
}

Status Unsupported(ElementalEmitter& em, const Operation& op, const Expr& a) {
  return em.OpError(op, fmt::format("does not take {} operands", ir::ElementTypeName(a.type)));
}

// An emulated 64-bit integer operation: the hlo_i64.glsl function applied to a and b.
Expr Emulated(ElementalEmitter& em, const TypeFacts& f, const std::string& name, const Expr& a, const Expr& b,
              bool by_sign = false) {
  return em.Exact(a.type, fmt::format("{}({}, {})", Emulated64(em, f, name, by_sign), a.code, b.code));
}

StatusOr<Expr> Add(ElementalEmitter& em, const Operation&, const Expr& a, const Expr& b) {
  if (em.Facts(a.type).kind == ComputeKind::kBool) return em.Exact(a.type, fmt::format("{} || {}", a.code, b.code));
  if (em.Facts(a.type).emulated) return Emulated(em, em.Facts(a.type), "hlo_u64_add", a, b);
  return em.Result(a.type, fmt::format("{} + {}", a.code, b.code));
}

StatusOr<Expr> Subtract(ElementalEmitter& em, const Operation& op, const Expr& a, const Expr& b) {
  if (em.Facts(a.type).kind == ComputeKind::kBool) return Unsupported(em, op, a);
  if (em.Facts(a.type).emulated) return Emulated(em, em.Facts(a.type), "hlo_u64_sub", a, b);
  return em.Result(a.type, fmt::format("{} - {}", a.code, b.code));
}

StatusOr<Expr> Multiply(ElementalEmitter& em, const Operation&, const Expr& a, const Expr& b) {
  const TypeFacts& f = em.Facts(a.type);
  if (f.kind == ComputeKind::kBool) return em.Exact(a.type, fmt::format("{} && {}", a.code, b.code));
  if (f.emulated) return Emulated(em, f, "hlo_u64_mul_lo", a, b);
  if (IsComplexKind(f.kind)) {
    em.IncludeMath(f.kind);
    return em.Exact(a.type, fmt::format("hlo_complex_multiply({}, {})", a.code, b.code));
  }
  if (f.kind == ComputeKind::kUint && f.bits == 32) return em.Exact(a.type, fmt::format("{} * {}", a.code, b.code));
  return em.Result(a.type, fmt::format("{} * {}", a.code, b.code));
}

StatusOr<Expr> Divide(ElementalEmitter& em, const Operation& op, const Expr& a, const Expr& b) {
  const TypeFacts& f = em.Facts(a.type);
  if (f.emulated) return Emulated(em, f, "hlo_e64_div", a, b, true);
  if (IsIntKind(f.kind)) {
    std::string fn = IntHelper(em, f, "hlo_div", kSignedDivide, kUnsignedDivide);
    return em.Result(a.type, fmt::format("{}({}, {})", fn, a.code, b.code));
  }
  if (IsComplexKind(f.kind)) {
    em.IncludeMath(f.kind);
    return em.Exact(a.type, fmt::format("hlo_complex_divide({}, {})", a.code, b.code));
  }
  if (IsRealFloatKind(f.kind)) return RealLibraryCall(em, "hlo_divide", a, &b);
  return Unsupported(em, op, a);
}

StatusOr<Expr> Remainder(ElementalEmitter& em, const Operation& op, const Expr& a, const Expr& b) {
  const TypeFacts& f = em.Facts(a.type);
  if (f.emulated) return Emulated(em, f, "hlo_e64_rem", a, b, true);
  if (IsIntKind(f.kind)) {
    std::string fn = IntHelper(em, f, "hlo_rem", kSignedRemainder, kUnsignedRemainder);
    return em.Result(a.type, fmt::format("{}({}, {})", fn, a.code, b.code));
  }
  if (IsComplexKind(f.kind)) {
    // lhs - d * rhs, d the quotient with both parts truncated toward zero (as the interpreter).
    em.IncludeMath(f.kind);
    std::string q = em.Var(f.glsl, fmt::format("trunc(hlo_complex_divide({}, {}))", a.code, b.code));
    return em.Exact(a.type, fmt::format("{} - hlo_complex_multiply({}, {})", a.code, q, b.code));
  }
  if (IsRealFloatKind(f.kind)) return RealLibraryCall(em, "hlo_remainder", a, &b);
  return Unsupported(em, op, a);
}

StatusOr<Expr> Power(ElementalEmitter& em, const Operation& op, const Expr& a, const Expr& b) {
  const TypeFacts& f = em.Facts(a.type);
  if (f.emulated) return Emulated(em, f, "hlo_e64_pow", a, b, true);
  if (IsIntKind(f.kind)) {
    std::string fn = IntHelper(em, f, "hlo_ipow", kSignedPower, kUnsignedPower);
    return em.Result(a.type, fmt::format("{}({}, {})", fn, a.code, b.code));
  }
  if (IsComplexKind(f.kind)) {
    em.IncludeMath(f.kind);
    return em.Exact(a.type, fmt::format("hlo_complex_power({}, {})", a.code, b.code));
  }
  if (IsRealFloatKind(f.kind)) return RealLibraryCall(em, "hlo_power", a, &b);
  return Unsupported(em, op, a);
}

StatusOr<Expr> MaxMin(ElementalEmitter& em, const Expr& a, const Expr& b, bool max) {
  const TypeFacts& f = em.Facts(a.type);
  if (f.emulated) return Emulated(em, f, max ? "hlo_e64_max" : "hlo_e64_min", a, b, true);
  switch (f.kind) {
    case ComputeKind::kBool:
      return em.Exact(a.type, fmt::format(fmt::runtime(max ? "{} || {}" : "{} && {}"), a.code, b.code));
    case ComputeKind::kInt:
    case ComputeKind::kUint:
    case ComputeKind::kInt64:
    case ComputeKind::kUint64:
      return em.Exact(a.type, fmt::format(fmt::runtime(max ? "{0} >= {1} ? {0} : {1}" : "{0} <= {1} ? {0} : {1}"),
                                          a.code, b.code));
    default: break;
  }
  std::string fn = MaxMinHelper(em, f, max);
  return em.Exact(a.type, fmt::format("{}({}, {})", fn, a.code, b.code));
}

StatusOr<Expr> Maximum(ElementalEmitter& em, const Operation&, const Expr& a, const Expr& b) {
  return MaxMin(em, a, b, true);
}
StatusOr<Expr> Minimum(ElementalEmitter& em, const Operation&, const Expr& a, const Expr& b) {
  return MaxMin(em, a, b, false);
}

// clamp(min, operand, max) = minimum(maximum(operand, min), max); min and max may be scalars.
StatusOr<Expr> EmitClamp(ElementalEmitter& em, const Operation& op, const Index& index) {
  VKHLO_ASSIGN_OR_RETURN(Expr lo, ComputeOperand(em, op, 0, index));
  VKHLO_ASSIGN_OR_RETURN(Expr x, ComputeOperand(em, op, 1, index));
  VKHLO_ASSIGN_OR_RETURN(Expr hi, ComputeOperand(em, op, 2, index));
  VKHLO_ASSIGN_OR_RETURN(Expr t, MaxMin(em, x, lo, true));
  return MaxMin(em, t, hi, false);
}

StatusOr<Expr> EmitNegate(ElementalEmitter& em, const Operation& op, const Index& index) {
  VKHLO_ASSIGN_OR_RETURN(Expr a, ComputeOperand(em, op, 0, index));
  const TypeFacts& f = em.Facts(a.type);
  if (f.kind == ComputeKind::kBool) return Unsupported(em, op, a);
  if (f.emulated) return em.Exact(a.type, fmt::format("{}({})", Emulated64(em, f, "hlo_e64_neg"), a.code));
  if (f.kind == ComputeKind::kUint || f.kind == ComputeKind::kUint64) {
    return em.Result(a.type, fmt::format("{} - {}", TypedLiteral(f, 0), a.code));
  }
  return em.Result(a.type, fmt::format("-{}", a.code));
}

StatusOr<Expr> EmitAbs(ElementalEmitter& em, const Operation& op, const Index& index) {
  VKHLO_ASSIGN_OR_RETURN(Expr a, ComputeOperand(em, op, 0, index));
  const TypeFacts& f = em.Facts(a.type);
  if (f.emulated && f.kind == ComputeKind::kInt64) {
    return em.Exact(a.type, fmt::format("{}({})", Emulated64(em, f, "hlo_e64_abs"), a.code));
  }
  switch (f.kind) {
    case ComputeKind::kInt:
    case ComputeKind::kInt64:
      return em.Result(a.type, fmt::format("{0} < {1} ? {1} - {0} : {0}", a.code, TypedLiteral(f, 0)));
    case ComputeKind::kUint:
    case ComputeKind::kUint64: return a;
    case ComputeKind::kFloat:
    case ComputeKind::kNarrowFloat:
      // Clear the sign bit (keeps NaN payloads, as fabs does).
      return em.Result(a.type, fmt::format("uintBitsToFloat(floatBitsToUint({}) & 0x7fffffffu)", a.code));
    case ComputeKind::kDouble:
      return em.Exact(a.type, fmt::format("packDouble2x32(unpackDouble2x32({}) & uvec2(0xffffffffu, 0x7fffffffu))", a.code));
    case ComputeKind::kHalf: return em.Exact(a.type, fmt::format("abs({})", a.code));
    case ComputeKind::kComplex64:
    case ComputeKind::kComplex128:
      em.IncludeMath(f.kind);
      return em.Exact(ResultElementType(op), fmt::format("hlo_complex_abs({})", a.code));
    default: return Unsupported(em, op, a);
  }
}

StatusOr<Expr> EmitSign(ElementalEmitter& em, const Operation& op, const Index& index) {
  VKHLO_ASSIGN_OR_RETURN(Expr a, ComputeOperand(em, op, 0, index));
  const TypeFacts& f = em.Facts(a.type);
  if (f.emulated) return em.Exact(a.type, fmt::format("{}({})", Emulated64(em, f, "hlo_e64_sign", true), a.code));
  const std::string zero = TypedLiteral(f, 0), one = TypedLiteral(f, 1);
  switch (f.kind) {
    case ComputeKind::kInt:
    case ComputeKind::kInt64:
      return em.Exact(a.type, fmt::format("{0} < {1} ? {3} : ({0} != {1} ? {2} : {1})", a.code, zero, one,
                                          TypedLiteral(f, -1)));
    case ComputeKind::kUint:
    case ComputeKind::kUint64: return em.Exact(a.type, fmt::format("{0} != {1} ? {2} : {1}", a.code, zero, one));
    case ComputeKind::kComplex64:
    case ComputeKind::kComplex128:
      em.IncludeMath(f.kind);
      return em.Exact(a.type, fmt::format("hlo_complex_sign({})", a.code));
    case ComputeKind::kBool: return Unsupported(em, op, a);
    default:
      // NaN stays NaN, +-0 stay.
      return em.Exact(a.type, fmt::format("({4} || {0} == {1}) ? {0} : ({0} < {1} ? {3} : {2})", a.code,
                                          zero, one, TypedLiteral(f, -1), NanTestExpr(f, a.code)));
  }
}

}  // namespace

void RegisterArithmeticEmitters(OpEmitterTable& t) {
  using ir::OpCode;
  t.Register(OpCode::kAdd, EmitBinary<Add>);
  t.Register(OpCode::kSubtract, EmitBinary<Subtract>);
  t.Register(OpCode::kMultiply, EmitBinary<Multiply>);
  t.Register(OpCode::kDivide, EmitBinary<Divide>);
  t.Register(OpCode::kRemainder, EmitBinary<Remainder>);
  t.Register(OpCode::kPower, EmitBinary<Power>);
  t.Register(OpCode::kMaximum, EmitBinary<Maximum>);
  t.Register(OpCode::kMinimum, EmitBinary<Minimum>);
  t.Register(OpCode::kClamp, EmitClamp);
  t.Register(OpCode::kNegate, EmitNegate);
  t.Register(OpCode::kAbs, EmitAbs);
  t.Register(OpCode::kSign, EmitSign);
}

}  // namespace vkhlo::codegen
