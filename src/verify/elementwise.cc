// Element-wise ops: unary and binary arithmetic, compare, select, clamp, conversions, map, and
// the quantize/dequantize pair.
#include <fmt/format.h>

#include <array>

#include "verify/op_rules.h"
#include "verify/shape_inference.h"

namespace vkhlo::verify {
namespace {

using ir::ElementType;
using ir::OpCode;
using ir::Type;

constexpr uint32_t B = kBoolean, SI = kSignedInt, I = kInt, F = kFloat, C = kComplex, Q = kQuantized;
constexpr uint32_t kAny = kAnyElement;

constexpr const char* kSameUnary = "result type must match the operand's (C1)";
constexpr const char* kSameBinary = "result type must match the operands' (C1)";
constexpr const char* kRealUnary = "result type must be the operand's shape with a real element type (C1, C2)";
constexpr const char* kBoolUnary = "result type must be a boolean tensor of the operand's shape (C1)";

StatusOr<TypeList> InferCompare(const OpContext& ctx) {
  VKHLO_RETURN_IF_ERROR(ctx.RequireTensor(0, kAny, "lhs (I1)"));
  VKHLO_RETURN_IF_ERROR(ctx.RequireTensor(1, kAny, "rhs (I2)"));
  const Type& lhs = ctx.operand(0);
  const Type& rhs = ctx.operand(1);
  if (!CompatibleElement(lhs, rhs)) {
    return ctx.Error("lhs and rhs must have the same element type (C1)", ElementName(lhs), ElementName(rhs));
  }
  if (!SameShape(lhs, rhs)) {
    return ctx.Error("lhs and rhs must have the same shape (C2)", lhs.ToString(), rhs.ToString());
  }
  static constexpr std::array<std::string_view, 6> kDirections = {"EQ", "NE", "GE", "GT", "LE", "LT"};
  VKHLO_RETURN_IF_ERROR(ctx.Enum("comparison_direction", "comparison_direction", kDirections).status());
  if (ctx.Attr("compare_type") != nullptr) {
    static constexpr std::array<std::string_view, 5> kTypes = {"FLOAT", "TOTALORDER", "SIGNED", "UNSIGNED",
                                                               "NOTYPE"};
    VKHLO_ASSIGN_OR_RETURN(std::string type, ctx.Enum("compare_type", "comparison_type", kTypes));
    std::string expected;
    const ElementType e = lhs.element_type();
    if (lhs.is_quantized() || ir::IsFloat(e)) {
      if (type != "FLOAT" && type != "TOTALORDER") expected = "FLOAT or TOTALORDER";
    } else if (ir::IsComplex(e)) {
      if (type != "FLOAT") expected = "FLOAT";
    } else if (ir::IsSignedInteger(e)) {
      if (type != "SIGNED") expected = "SIGNED";
    } else if (type != "UNSIGNED") {
      expected = "UNSIGNED";
    }
    if (!expected.empty() && type != "NOTYPE") {
      return ctx.Error(fmt::format("compare_type must suit the element type {} (C3)", ElementName(lhs)), expected,
                       type);
    }
  }
  return TypeList{Type::Tensor(ElementType::kI1, lhs.dims())};
}

StatusOr<TypeList> InferComplex(const OpContext& ctx) {
  for (size_t i = 0; i < 2; ++i) {
    const Type& t = ctx.operand(i);
    if (!t.is_tensor() || t.is_quantized() ||
        (t.element_type() != ElementType::kF32 && t.element_type() != ElementType::kF64)) {
      return ctx.Error(fmt::format("{} has an invalid type", i == 0 ? "lhs (I1)" : "rhs (I2)"),
                       "tensor of type f32 or f64", t.ToString());
    }
  }
  VKHLO_RETURN_IF_ERROR(CheckSameOperandTypes(ctx, "C1"));
  const Type& lhs = ctx.operand(0);
  const ElementType complex = lhs.element_type() == ElementType::kF32 ? ElementType::kC64 : ElementType::kC128;
  return TypeList{Type::Tensor(complex, lhs.dims())};
}

StatusOr<TypeList> InferClamp(const OpContext& ctx) {
  VKHLO_RETURN_IF_ERROR(ctx.RequireTensor(0, kAny, "min (I1)"));
  VKHLO_RETURN_IF_ERROR(ctx.RequireTensor(1, kAny, "operand (I2)"));
  VKHLO_RETURN_IF_ERROR(ctx.RequireTensor(2, kAny, "max (I3)"));
  const Type& operand = ctx.operand(1);
  for (size_t i : {size_t{0}, size_t{2}}) {
    const Type& bound = ctx.operand(i);
    if (bound.rank() != 0 && !SameShape(bound, operand)) {
      return ctx.Error(fmt::format("{} must be a scalar or have the operand's shape ({})", i == 0 ? "min" : "max",
                                   i == 0 ? "C1" : "C2"),
                       fmt::format("rank 0 or the shape of {}", operand.ToString()), bound.ToString());
    }
    if (!CompatibleElement(bound, operand)) {
      return ctx.Error("min, operand and max must have the same element type (C3)", ElementName(operand),
                       ElementName(bound));
    }
  }
  return TypeList{operand};
}

StatusOr<TypeList> InferSelect(const OpContext& ctx) {
  VKHLO_RETURN_IF_ERROR(ctx.RequireTensor(0, B, "pred (I1)"));
  VKHLO_RETURN_IF_ERROR(ctx.RequireTensor(1, kAny, "on_true (I2)"));
  VKHLO_RETURN_IF_ERROR(ctx.RequireTensor(2, kAny, "on_false (I3)"));
  const Type& pred = ctx.operand(0);
  const Type& on_true = ctx.operand(1);
  if (pred.rank() != 0 && !SameShape(pred, on_true)) {
    return ctx.Error("pred must be a scalar or have on_true's shape (C1)",
                     fmt::format("rank 0 or the shape of {}", on_true.ToString()), pred.ToString());
  }
  if (!CompatibleType(on_true, ctx.operand(2))) {
    return ctx.Error("on_true and on_false must have the same type (C2)", on_true.ToString(),
                     ctx.operand(2).ToString());
  }
  return TypeList{on_true};
}

Status VerifyConvert(const OpContext& ctx) {
  constexpr uint32_t kPlain = B | I | F | C;
  VKHLO_RETURN_IF_ERROR(ctx.RequireTensor(0, kPlain, "operand (I1)"));
  VKHLO_RETURN_IF_ERROR(ctx.RequireResultTensor(0, kPlain, "result"));
  if (!SameShape(ctx.operand(0), ctx.result(0))) {
    return ctx.Error("operand and result must have the same shape (C1)", ctx.operand(0).ToString(),
                     ctx.result(0).ToString());
  }
  return OkStatus();
}

int StorageBits(const Type& t) { return ir::BitWidth(t.element_type()); }

Status VerifyBitcastConvert(const OpContext& ctx) {
  VKHLO_RETURN_IF_ERROR(ctx.RequireTensor(0, kAny, "operand (I1)"));
  VKHLO_RETURN_IF_ERROR(ctx.RequireResultTensor(0, kAny, "result"));
  const Type& operand = ctx.operand(0);
  const Type& result = ctx.result(0);
  const bool operand_complex = !operand.is_quantized() && ir::IsComplex(operand.element_type());
  const bool result_complex = !result.is_quantized() && ir::IsComplex(result.element_type());
  if (operand_complex != result_complex) {
    return ctx.Error("cannot convert between complex and non-complex types (C2)",
                     operand_complex ? "a complex result" : "a non-complex result", result.ToString());
  }
  const int in_bits = StorageBits(operand);
  const int out_bits = StorageBits(result);
  std::vector<int64_t> expected = operand.dims();
  if (out_bits < in_bits) {
    if (in_bits % out_bits != 0) {
      return ctx.Error("element bit widths must divide each other (C1)",
                       fmt::format("a divisor of {} bits", in_bits), fmt::format("{} bits", out_bits));
    }
    expected.push_back(in_bits / out_bits);
  } else if (out_bits > in_bits) {
    const int64_t ratio = out_bits % in_bits == 0 ? out_bits / in_bits : -1;
    if (operand.rank() == 0 || !CompatibleDim(operand.dims().back(), ratio)) {
      return ctx.Error("operand's last dimension must be num_bits(result) / num_bits(operand) (C1)",
                       ratio < 0 ? fmt::format("{} bits dividing {} bits", in_bits, out_bits)
                                 : fmt::format("{}", ratio),
                       operand.ToString());
    }
    expected.pop_back();
  }
  if (!CompatibleDims(result.dims(), expected)) {
    return ctx.Error("result shape must follow the element bit widths (C1)", result.WithDims(expected).ToString(),
                     result.ToString());
  }
  return OkStatus();
}

StatusOr<TypeList> InferMap(const OpContext& ctx) {
  VKHLO_RETURN_IF_ERROR(ctx.RequireTensors(0, ctx.num_operands(), kAny, "inputs (I1)"));
  const Type& first = ctx.operand(0);
  for (size_t i = 1; i < ctx.num_operands(); ++i) {
    if (!SameShape(first, ctx.operand(i))) {
      return ctx.Error("inputs must have the same shape (C1)", first.ToString(), ctx.operand(i).ToString());
    }
  }
  VKHLO_ASSIGN_OR_RETURN(auto dimensions, ctx.Ints("dimensions"));
  std::vector<int64_t> iota(static_cast<size_t>(first.rank()));
  for (size_t i = 0; i < iota.size(); ++i) iota[i] = static_cast<int64_t>(i);
  if (dimensions != iota) {
    return ctx.Error("dimensions must be [0, ..., R-1] (C3)", IntListToString(iota), IntListToString(dimensions));
  }
  VKHLO_ASSIGN_OR_RETURN(RegionSignature signature, ctx.Region(0, "computation"));
  std::vector<Type> arguments;
  for (const Type& input : ctx.operands()) arguments.push_back(ScalarOf(input));
  Type returned = signature.results.size() == 1 ? signature.results[0] : Type();
  const Type result_scalar = !ctx.inferring() && ctx.num_results() == 1 && ctx.result(0).is_tensor()
                                 ? ScalarOf(ctx.result(0))
                                 : (returned.is_tensor() ? returned : ScalarOf(first));
  if (signature.arguments != arguments || signature.results.size() != 1 || !returned.is_tensor() ||
      returned.rank() != 0 || (!ctx.inferring() && returned != result_scalar)) {
    return ctx.Error("computation must have type (C4)", SignatureToString(arguments, std::span(&result_scalar, 1)),
                     signature.ToString());
  }
  return TypeList{WithDims(returned, first.dims())};
}

StatusOr<TypeList> InferReducePrecision(const OpContext& ctx) {
  VKHLO_RETURN_IF_ERROR(ctx.RequireTensor(0, F | Q, "operand (I1)"));
  VKHLO_ASSIGN_OR_RETURN(int64_t exponent_bits, ctx.Int("exponent_bits"));
  VKHLO_ASSIGN_OR_RETURN(int64_t mantissa_bits, ctx.Int("mantissa_bits"));
  if (exponent_bits < 1) {
    return ctx.Error("exponent_bits must be at least 1 (C2)", ">= 1", fmt::format("{}", exponent_bits));
  }
  if (mantissa_bits < 0) {
    return ctx.Error("mantissa_bits must be non-negative (C3)", ">= 0", fmt::format("{}", mantissa_bits));
  }
  return TypeList{ctx.operand(0)};
}

Status VerifyUniformQuantize(const OpContext& ctx) {
  VKHLO_RETURN_IF_ERROR(ctx.RequireTensor(0, F | Q, "operand (I1)"));
  VKHLO_RETURN_IF_ERROR(ctx.RequireResultTensor(0, Q, "result"));
  const Type& operand = ctx.operand(0);
  const Type& result = ctx.result(0);
  if (!SameShape(operand, result)) {
    return ctx.Error("operand and result must have the same shape (C1)", operand.ToString(), result.ToString());
  }
  const ElementType expressed =
      operand.is_quantized() ? operand.quantization()->expressed : operand.element_type();
  if (result.quantization()->expressed != expressed) {
    return ctx.Error("result's expressed type must be the operand's (C2)",
                     std::string(ir::ElementTypeName(expressed)),
                     std::string(ir::ElementTypeName(result.quantization()->expressed)));
  }
  return OkStatus();
}

StatusOr<TypeList> InferUniformDequantize(const OpContext& ctx) {
  VKHLO_RETURN_IF_ERROR(ctx.RequireTensor(0, Q, "operand (I1)"));
  const Type& operand = ctx.operand(0);
  return TypeList{Type::Tensor(operand.quantization()->expressed, operand.dims())};
}

constexpr OpRule kRules[] = {
    {OpCode::kAbs, InferUnary<SI | F | C | Q, UnaryResult::kRealPart>, nullptr, kRealUnary, ResultMatch::kCompatible},
    {OpCode::kAdd, InferBinary<kAny>, nullptr, kSameBinary, ResultMatch::kCompatible},
    {OpCode::kAnd, InferBinary<B | I>, nullptr, kSameBinary},
    {OpCode::kAtan2, InferBinary<F | C | Q>, nullptr, kSameBinary, ResultMatch::kCompatible},
    {OpCode::kBitcastConvert, nullptr, VerifyBitcastConvert},
    {OpCode::kCbrt, InferUnary<F | C | Q>, nullptr, kSameUnary, ResultMatch::kCompatible},
    {OpCode::kCeil, InferUnary<F | Q>, nullptr, kSameUnary, ResultMatch::kCompatible},
    {OpCode::kClamp, InferClamp, nullptr, "result type must match the operand's (C4)", ResultMatch::kCompatible},
    {OpCode::kCompare, InferCompare, nullptr, "result type must be a boolean tensor of the operands' shape (C2)"},
    {OpCode::kComplex, InferComplex, nullptr, "result type must be the complex type of the operands (C2, C3)"},
    {OpCode::kConvert, nullptr, VerifyConvert},
    {OpCode::kCosine, InferUnary<F | C | Q>, nullptr, kSameUnary, ResultMatch::kCompatible},
    {OpCode::kCountLeadingZeros, InferUnary<I>, nullptr, kSameUnary},
    {OpCode::kDivide, InferBinary<I | F | C | Q>, nullptr, kSameBinary, ResultMatch::kCompatible},
    {OpCode::kExponential, InferUnary<F | C | Q>, nullptr, kSameUnary, ResultMatch::kCompatible},
    {OpCode::kExponentialMinusOne, InferUnary<F | C | Q>, nullptr, kSameUnary, ResultMatch::kCompatible},
    {OpCode::kFloor, InferUnary<F | Q>, nullptr, kSameUnary, ResultMatch::kCompatible},
    {OpCode::kImag, InferUnary<F | C, UnaryResult::kRealPart>, nullptr, kRealUnary},
    {OpCode::kIsFinite, InferUnary<F, UnaryResult::kBoolean>, nullptr, kBoolUnary},
    {OpCode::kLog, InferUnary<F | C | Q>, nullptr, kSameUnary, ResultMatch::kCompatible},
    {OpCode::kLogPlusOne, InferUnary<F | C | Q>, nullptr, kSameUnary, ResultMatch::kCompatible},
    {OpCode::kLogistic, InferUnary<F | C | Q>, nullptr, kSameUnary, ResultMatch::kCompatible},
    {OpCode::kMap, InferMap, nullptr, "result type must have the inputs' shape and the computation's element type (C1, C4)"},
    {OpCode::kMaximum, InferBinary<kAny>, nullptr, kSameBinary, ResultMatch::kCompatible},
    {OpCode::kMinimum, InferBinary<kAny>, nullptr, kSameBinary, ResultMatch::kCompatible},
    {OpCode::kMultiply, InferBinary<kAny>, nullptr, kSameBinary, ResultMatch::kCompatible},
    {OpCode::kNegate, InferUnary<I | F | C | Q>, nullptr, kSameUnary, ResultMatch::kCompatible},
    {OpCode::kNot, InferUnary<B | I>, nullptr, kSameUnary},
    {OpCode::kOr, InferBinary<B | I>, nullptr, kSameBinary},
    {OpCode::kPopcnt, InferUnary<I>, nullptr, kSameUnary},
    {OpCode::kPower, InferBinary<I | F | C | Q>, nullptr, kSameBinary, ResultMatch::kCompatible},
    {OpCode::kReal, InferUnary<F | C, UnaryResult::kRealPart>, nullptr, kRealUnary},
    {OpCode::kReducePrecision, InferReducePrecision, nullptr, "output type must match the operand's (C1)",
     ResultMatch::kCompatible},
    {OpCode::kRemainder, InferBinary<I | F | C | Q>, nullptr, kSameBinary, ResultMatch::kCompatible},
    {OpCode::kRoundNearestAfz, InferUnary<F | Q>, nullptr, kSameUnary, ResultMatch::kCompatible},
    {OpCode::kRoundNearestEven, InferUnary<F | Q>, nullptr, kSameUnary, ResultMatch::kCompatible},
    {OpCode::kRsqrt, InferUnary<F | C | Q>, nullptr, kSameUnary, ResultMatch::kCompatible},
    {OpCode::kSelect, InferSelect, nullptr, "result type must match on_true and on_false (C2)",
     ResultMatch::kCompatible},
    {OpCode::kShiftLeft, InferBinary<I>, nullptr, kSameBinary},
    {OpCode::kShiftRightArithmetic, InferBinary<I>, nullptr, kSameBinary},
    {OpCode::kShiftRightLogical, InferBinary<I>, nullptr, kSameBinary},
    {OpCode::kSign, InferUnary<SI | F | C | Q>, nullptr, kSameUnary, ResultMatch::kCompatible},
    {OpCode::kSine, InferUnary<F | C | Q>, nullptr, kSameUnary, ResultMatch::kCompatible},
    {OpCode::kSqrt, InferUnary<F | C | Q>, nullptr, kSameUnary, ResultMatch::kCompatible},
    {OpCode::kSubtract, InferBinary<I | F | C | Q>, nullptr, kSameBinary, ResultMatch::kCompatible},
    {OpCode::kTan, InferUnary<F | C | Q>, nullptr, kSameUnary, ResultMatch::kCompatible},
    {OpCode::kTanh, InferUnary<F | C | Q>, nullptr, kSameUnary, ResultMatch::kCompatible},
    {OpCode::kXor, InferBinary<B | I>, nullptr, kSameBinary},
    {OpCode::kUniformQuantize, nullptr, VerifyUniformQuantize},
    {OpCode::kUniformDequantize, InferUniformDequantize, nullptr,
     "result type must be the operand's shape with its expressed type (C1, C2)"},
};

}  // namespace

std::span<const OpRule> ElementwiseRules() { return kRules; }

}  // namespace vkhlo::verify
