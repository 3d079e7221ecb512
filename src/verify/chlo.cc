// chlo ops (decomposed into StableHLO before execution): arity and the obvious type rules —
// element-wise types, numpy-style broadcasting of the chlo.broadcast_* ops, top_k's shapes.
#include <fmt/format.h>

#include <array>

#include "verify/op_rules.h"
#include "verify/shape_inference.h"

namespace vkhlo::verify {
namespace {

using ir::ElementType;
using ir::OpCode;
using ir::Type;

constexpr uint32_t I = kInt, F = kFloat, C = kComplex, B = kBoolean, Q = kQuantized;
constexpr uint32_t kAny = kAnyElement;

constexpr const char* kSameUnary = "result type must match the operand's";
constexpr const char* kSameBinary = "result type must match the operands'";
constexpr const char* kBroadcast = "result type must be the broadcast of the operands";

// The broadcast of two shapes: numpy-style (aligned at the right), or through
// broadcast_dimensions, which maps the lower-rank operand's dimensions into the result.
StatusOr<std::vector<int64_t>> BroadcastShapes(const OpContext& ctx, const Type& a, const Type& b) {
  const Type& high = a.rank() >= b.rank() ? a : b;
  const Type& low = a.rank() >= b.rank() ? b : a;
  std::vector<int64_t> mapping;
  VKHLO_ASSIGN_OR_RETURN(auto given, ctx.OptionalInts("broadcast_dimensions"));
  if (given && low.rank() != high.rank()) {
    VKHLO_RETURN_IF_ERROR(ctx.CheckSize(*given, low.rank(), "broadcast_dimensions", ""));
    VKHLO_RETURN_IF_ERROR(ctx.CheckInRange(*given, 0, high.rank(), "broadcast_dimensions", ""));
    mapping = *given;
  } else {
    for (int64_t i = 0; i < low.rank(); ++i) mapping.push_back(high.rank() - low.rank() + i);
  }
  std::vector<int64_t> dims = high.dims();
  for (int64_t i = 0; i < low.rank(); ++i) {
    int64_t& out = dims[mapping[i]];
    const int64_t in = low.dim(i);
    if (in == out || in == 1) continue;
    if (ir::IsDynamicDim(in) || ir::IsDynamicDim(out)) {  // 1 or the other size: known once refined
      out = ir::kDynamic;
      continue;
    }
    if (out == 1) {
      out = in;
      continue;
    }
    return ctx.Error("operand shapes must be broadcastable", a.ToString(), b.ToString());
  }
  return dims;
}

template <uint32_t kClasses, bool kBooleanResult>
StatusOr<TypeList> InferBroadcastBinary(const OpContext& ctx) {
  VKHLO_RETURN_IF_ERROR(ctx.RequireTensor(0, kClasses, "lhs"));
  VKHLO_RETURN_IF_ERROR(ctx.RequireTensor(1, kClasses, "rhs"));
  const Type& lhs = ctx.operand(0);
  const Type& rhs = ctx.operand(1);
  if (!CompatibleElement(lhs, rhs)) {
    return ctx.Error("lhs and rhs must have the same element type", ElementName(lhs), ElementName(rhs));
  }
  if constexpr (kBooleanResult) {
    static constexpr std::array<std::string_view, 6> kDirections = {"EQ", "NE", "GE", "GT", "LE", "LT"};
    VKHLO_RETURN_IF_ERROR(ctx.Enum("comparison_direction", "comparison_direction", kDirections).status());
    static constexpr std::array<std::string_view, 5> kTypes = {"FLOAT", "TOTALORDER", "SIGNED", "UNSIGNED", "NOTYPE"};
    VKHLO_RETURN_IF_ERROR(ctx.Enum("compare_type", "comparison_type", kTypes, "NOTYPE").status());
  }
  VKHLO_ASSIGN_OR_RETURN(auto dims, BroadcastShapes(ctx, lhs, rhs));
  if constexpr (kBooleanResult) return TypeList{Type::Tensor(ElementType::kI1, dims)};
  return TypeList{WithDims(lhs, dims)};
}

StatusOr<TypeList> InferBroadcastSelect(const OpContext& ctx) {
  VKHLO_RETURN_IF_ERROR(ctx.RequireTensor(0, B, "pred"));
  VKHLO_RETURN_IF_ERROR(ctx.RequireTensor(1, kAny, "on_true"));
  VKHLO_RETURN_IF_ERROR(ctx.RequireTensor(2, kAny, "on_false"));
  if (!CompatibleElement(ctx.operand(1), ctx.operand(2))) {
    return ctx.Error("on_true and on_false must have the same element type", ElementName(ctx.operand(1)),
                     ElementName(ctx.operand(2)));
  }
  VKHLO_ASSIGN_OR_RETURN(auto dims, BroadcastShapes(ctx, ctx.operand(1), ctx.operand(2)));
  VKHLO_ASSIGN_OR_RETURN(dims, BroadcastShapes(ctx, ctx.operand(0), Type::Tensor(ElementType::kI1, dims)));
  return TypeList{WithDims(ctx.operand(1), dims)};
}

StatusOr<TypeList> InferConstantLike(const OpContext& ctx) {
  VKHLO_RETURN_IF_ERROR(ctx.RequireTensor(0, kAny, "operand"));
  if (ctx.Attr("value") == nullptr) return ctx.MissingAttribute("value", "a scalar constant");
  return TypeList{ctx.operand(0)};
}

Status VerifyChloConstant(const OpContext& ctx) {
  const ir::Attribute* attr = ctx.Attr("value");
  if (attr == nullptr) return ctx.MissingAttribute("value", "a dense elements attribute");
  const ir::Literal* literal = attr->AsDenseElements();
  if (literal == nullptr) return ctx.WrongAttributeKind("value", "a dense elements attribute", *attr);
  if (literal->type() != ctx.result(0)) {
    return ctx.Error("value and output must have the same type", ctx.result(0).ToString(), literal->type().ToString());
  }
  return OkStatus();
}

StatusOr<TypeList> InferTopK(const OpContext& ctx) {
  VKHLO_RETURN_IF_ERROR(ctx.RequireTensor(0, B | I | F, "operand"));
  const Type& operand = ctx.operand(0);
  VKHLO_ASSIGN_OR_RETURN(int64_t k, ctx.Int("k"));
  if (operand.rank() < 1) return ctx.Error("operand must have rank at least 1", "rank >= 1", operand.ToString());
  const int64_t last = operand.dim(operand.rank() - 1);
  if (k < 0 || (!ir::IsDynamicDim(last) && k > last)) {
    return ctx.Error("k must be at most the size of the last dimension", fmt::format("a value in [0, {}]", last),
                     fmt::format("{}", k));
  }
  std::vector<int64_t> dims = operand.dims();
  dims.back() = k;
  return TypeList{WithDims(operand, dims), Type::Tensor(ElementType::kS32, dims)};
}

Status VerifyRaggedDot(const OpContext& ctx) {
  VKHLO_RETURN_IF_ERROR(ctx.RequireTensor(0, kAny, "lhs"));
  VKHLO_RETURN_IF_ERROR(ctx.RequireTensor(1, kAny, "rhs"));
  VKHLO_RETURN_IF_ERROR(ctx.RequireTensor(2, I, "group_sizes"));
  VKHLO_RETURN_IF_ERROR(ctx.RequireResultTensor(0, kAny, "result"));
  if (ctx.Attr("ragged_dot_dimension_numbers") == nullptr) {
    return ctx.MissingAttribute("ragged_dot_dimension_numbers", "#chlo.ragged_dot<...>");
  }
  return ctx.CheckPrecisionConfig("");
}

// chlo.scan: inputs and initial carries in (split by operandSegmentSizes when present), outputs
// and final carries out. The body takes one slice of every input and every carry and returns
// one slice of every output and every new carry; the carries keep their types.
Status VerifyScan(const OpContext& ctx) {
  VKHLO_ASSIGN_OR_RETURN(RegionSignature body, ctx.Region(0, "body"));
  VKHLO_ASSIGN_OR_RETURN(int64_t dimension, ctx.Int("dimension"));
  VKHLO_ASSIGN_OR_RETURN(auto segments, ctx.OptionalInts("operandSegmentSizes"));
  if (!segments) return OkStatus();
  const int64_t n = static_cast<int64_t>(ctx.num_operands());
  if (segments->size() != 2 || (*segments)[0] < 1 || (*segments)[1] < 0 || (*segments)[0] + (*segments)[1] != n) {
    return ctx.Error("operandSegmentSizes must split the operands into inputs and inits",
                     fmt::format("2 sizes adding up to {}", n), IntListToString(*segments));
  }
  const size_t inputs = static_cast<size_t>((*segments)[0]);
  const size_t carries = static_cast<size_t>((*segments)[1]);
  VKHLO_RETURN_IF_ERROR(ctx.RequireTensors(0, ctx.num_operands(), kAny, "operands"));
  for (size_t i = 0; i < inputs; ++i) {
    if (dimension < 0 || dimension >= ctx.operand(i).rank()) {
      return ctx.Error("dimension must be in range", fmt::format("a value in [0, {})", ctx.operand(i).rank()),
                       fmt::format("{}", dimension));
    }
  }
  if (body.arguments.size() != inputs + carries || body.results.size() != ctx.num_results() ||
      ctx.num_results() < carries) {
    return ctx.Error("body must take a slice of every input and every carry and return every output and carry",
                     fmt::format("{} arguments and {} results", inputs + carries, ctx.num_results()),
                     body.ToString());
  }
  for (size_t k = 0; k < carries; ++k) {
    const Type& init = ctx.operand(inputs + k);
    const Type& result = ctx.result(ctx.num_results() - carries + k);
    if (result != init || body.arguments[inputs + k] != init || body.results[body.results.size() - carries + k] != init) {
      return ctx.Error(fmt::format("carry {} must keep the type of its init", k), init.ToString(), result.ToString());
    }
  }
  return OkStatus();
}

constexpr OpRule kRules[] = {
    {OpCode::kChloAcos, InferUnary<F | C>, nullptr, kSameUnary},
    {OpCode::kChloAcosh, InferUnary<F | C>, nullptr, kSameUnary},
    {OpCode::kChloAsin, InferUnary<F | C>, nullptr, kSameUnary},
    {OpCode::kChloAsinh, InferUnary<F | C>, nullptr, kSameUnary},
    {OpCode::kChloAtan, InferUnary<F | C>, nullptr, kSameUnary},
    {OpCode::kChloAtanh, InferUnary<F | C>, nullptr, kSameUnary},
    {OpCode::kChloBesselI1e, InferUnary<F>, nullptr, kSameUnary},
    {OpCode::kChloConj, InferUnary<F | C>, nullptr, kSameUnary},
    {OpCode::kChloCosh, InferUnary<F | C>, nullptr, kSameUnary},
    {OpCode::kChloDigamma, InferUnary<F>, nullptr, kSameUnary},
    {OpCode::kChloErf, InferUnary<F>, nullptr, kSameUnary},
    {OpCode::kChloErfInv, InferUnary<F>, nullptr, kSameUnary},
    {OpCode::kChloErfc, InferUnary<F>, nullptr, kSameUnary},
    {OpCode::kChloIsInf, InferUnary<F, UnaryResult::kBoolean>, nullptr, kSameUnary},
    {OpCode::kChloIsNegInf, InferUnary<F, UnaryResult::kBoolean>, nullptr, kSameUnary},
    {OpCode::kChloIsPosInf, InferUnary<F, UnaryResult::kBoolean>, nullptr, kSameUnary},
    {OpCode::kChloLgamma, InferUnary<F>, nullptr, kSameUnary},
    {OpCode::kChloMulhi, InferBinary<I>, nullptr, kSameBinary},
    {OpCode::kChloNextAfter, InferBinary<F>, nullptr, kSameBinary},
    {OpCode::kChloPolygamma, InferBinary<F>, nullptr, kSameBinary},
    {OpCode::kChloRaggedDot, nullptr, VerifyRaggedDot},
    {OpCode::kChloScan, nullptr, VerifyScan},
    {OpCode::kChloSinh, InferUnary<F | C>, nullptr, kSameUnary},
    {OpCode::kChloSquare, InferUnary<I | F | C>, nullptr, kSameUnary},
    {OpCode::kChloTan, InferUnary<F | C>, nullptr, kSameUnary},
    {OpCode::kChloTopK, InferTopK, nullptr, "result types must be the top k values and their i32 indices"},
    {OpCode::kChloZeta, InferBinary<F>, nullptr, kSameBinary},
    {OpCode::kChloBroadcastAdd, InferBroadcastBinary<kAny, false>, nullptr, kBroadcast, ResultMatch::kCompatible},
    {OpCode::kChloBroadcastSubtract, InferBroadcastBinary<I | F | C | Q, false>, nullptr, kBroadcast,
     ResultMatch::kCompatible},
    {OpCode::kChloBroadcastMultiply, InferBroadcastBinary<kAny, false>, nullptr, kBroadcast, ResultMatch::kCompatible},
    {OpCode::kChloBroadcastDivide, InferBroadcastBinary<I | F | C | Q, false>, nullptr, kBroadcast,
     ResultMatch::kCompatible},
    {OpCode::kChloBroadcastMaximum, InferBroadcastBinary<kAny, false>, nullptr, kBroadcast, ResultMatch::kCompatible},
    {OpCode::kChloBroadcastMinimum, InferBroadcastBinary<kAny, false>, nullptr, kBroadcast, ResultMatch::kCompatible},
    {OpCode::kChloBroadcastCompare, InferBroadcastBinary<kAny, true>, nullptr, kBroadcast},
    {OpCode::kChloBroadcastAnd, InferBroadcastBinary<B | I, false>, nullptr, kBroadcast},
    {OpCode::kChloBroadcastOr, InferBroadcastBinary<B | I, false>, nullptr, kBroadcast},
    {OpCode::kChloBroadcastXor, InferBroadcastBinary<B | I, false>, nullptr, kBroadcast},
    {OpCode::kChloBroadcastPower, InferBroadcastBinary<I | F | C | Q, false>, nullptr, kBroadcast,
     ResultMatch::kCompatible},
    {OpCode::kChloBroadcastRemainder, InferBroadcastBinary<I | F | C | Q, false>, nullptr, kBroadcast,
     ResultMatch::kCompatible},
    {OpCode::kChloBroadcastAtan2, InferBroadcastBinary<F | C | Q, false>, nullptr, kBroadcast,
     ResultMatch::kCompatible},
    {OpCode::kChloBroadcastSelect, InferBroadcastSelect, nullptr, kBroadcast, ResultMatch::kCompatible},
    {OpCode::kChloConstantLike, InferConstantLike, nullptr, "result type must match the operand's"},
    {OpCode::kChloConstant, nullptr, VerifyChloConstant},
};

}  // namespace

std::span<const OpRule> ChloRules() { return kRules; }

}  // namespace vkhlo::verify
