// Element-wise ops: binary ops with XLA's implicit broadcasting, comparisons, unary ops,
// select/clamp, conversions, and Map.
#include <fmt/format.h>

#include "builder/builder_state.h"
#include "builder/type_conversion.h"
#include "vkhlo/xla_builder.h"

namespace vkhlo {
namespace {

using internal::BuilderState;
using internal::OpCall;
using ir::OpCode;
using ir::Value;

std::string DimsText(const std::vector<int64_t>& dims) { return fmt::format("[{}]", fmt::join(dims, ",")); }

// Degenerate-dimension broadcasting of two equal-rank dimension lists (xla_overview.md,
// "Broadcasting similar-rank arrays with degenerate dimensions").
StatusOr<std::vector<int64_t>> BroadcastDims(const std::vector<int64_t>& a, const std::vector<int64_t>& b) {
  std::vector<int64_t> result(a.size());
  for (size_t d = 0; d < a.size(); ++d) {
    if (a[d] == b[d] || b[d] == 1) {
      result[d] = a[d];
    } else if (a[d] == 1) {
      result[d] = b[d];
    } else {
      return InvalidArgumentError(fmt::format(
          "shapes are not compatible for broadcasting: dimension {} has sizes {} and {} (equal sizes or a size of 1 "
          "needed)",
          d, a[d], b[d]));
    }
  }
  return result;
}

std::vector<int64_t> Identity(size_t rank) {
  std::vector<int64_t> dims(rank);
  for (size_t i = 0; i < rank; ++i) dims[i] = static_cast<int64_t>(i);
  return dims;
}

// Broadcasts `value` (of rank equal to `dims`' or mapped by `mapping`) to `dims` when needed.
StatusOr<Value*> BroadcastTo(BuilderState& state, ir::Block& block, Value* value, const std::vector<int64_t>& dims,
                             const std::vector<int64_t>& mapping) {
  if (value->type().dims() == dims) return value;
  return internal::EmitBroadcastInDim(state, block, value, dims, mapping);
}

// XLA's implicit broadcasting of a binary op's operands (xla_overview.md, "Broadcasting
// semantics"); returns the operands with equal shapes.
StatusOr<std::pair<Value*, Value*>> BroadcastOperands(BuilderState& state, ir::Block& block, Value* lhs, Value* rhs,
                                                      const std::vector<int64_t>& broadcast_dimensions) {
  const ir::Type& lt = lhs->type();
  const ir::Type& rt = rhs->type();
  // Non-arrays are left to the op's own checks.
  if (!lt.is_tensor() || !rt.is_tensor()) return std::make_pair(lhs, rhs);
  const std::vector<int64_t>& ld = lt.dims();
  const std::vector<int64_t>& rd = rt.dims();
  if (ld.size() == rd.size()) {
    if (!broadcast_dimensions.empty() && broadcast_dimensions != Identity(ld.size())) {
      return InvalidArgumentError(fmt::format("operands of equal rank take no broadcast_dimensions other than the "
                                              "identity {}, found {}",
                                              DimsText(Identity(ld.size())), DimsText(broadcast_dimensions)));
    }
    VKHLO_ASSIGN_OR_RETURN(std::vector<int64_t> dims, BroadcastDims(ld, rd));
    VKHLO_ASSIGN_OR_RETURN(Value * l, BroadcastTo(state, block, lhs, dims, Identity(dims.size())));
    VKHLO_ASSIGN_OR_RETURN(Value * r, BroadcastTo(state, block, rhs, dims, Identity(dims.size())));
    return std::make_pair(l, r);
  }
  const bool lhs_small = ld.size() < rd.size();
  Value* small = lhs_small ? lhs : rhs;
  Value* large = lhs_small ? rhs : lhs;
  const std::vector<int64_t>& sd = small->type().dims();
  const std::vector<int64_t>& gd = large->type().dims();
  std::vector<int64_t> mapping = broadcast_dimensions;
  if (mapping.empty()) {
    if (!sd.empty()) {
      return InvalidArgumentError(fmt::format("operands of ranks {} and {} need broadcast_dimensions to say which "
                                              "dimensions of the higher-rank operand the lower-rank one matches",
                                              ld.size(), rd.size()));
    }
  } else {
    if (mapping.size() != sd.size()) {
      return InvalidArgumentError(fmt::format("broadcast_dimensions {} must have one entry per dimension of the "
                                              "lower-rank operand ({})",
                                              DimsText(mapping), sd.size()));
    }
    for (size_t i = 0; i < mapping.size(); ++i) {
      if (mapping[i] < 0 || mapping[i] >= static_cast<int64_t>(gd.size())) {
        return InvalidArgumentError(fmt::format("broadcast_dimensions {} must be in [0, {})", DimsText(mapping),
                                                gd.size()));
      }
      if (i > 0 && mapping[i] <= mapping[i - 1]) {
        return InvalidArgumentError(
            fmt::format("broadcast_dimensions {} must be strictly increasing", DimsText(mapping)));
      }
    }
  }
  // The lower-rank operand, raised to the higher rank (unmapped dimensions of size 1), then
  // degenerate-dimension broadcasting against the higher-rank one.
  std::vector<int64_t> raised(gd.size(), 1);
  for (size_t i = 0; i < mapping.size(); ++i) raised[static_cast<size_t>(mapping[i])] = sd[i];
  StatusOr<std::vector<int64_t>> dims = BroadcastDims(raised, gd);
  if (!dims.ok()) {
    return InvalidArgumentError(fmt::format("with broadcast_dimensions {}: {}", DimsText(mapping), dims.status().message()));
  }
  VKHLO_ASSIGN_OR_RETURN(Value * s, internal::EmitBroadcastInDim(state, block, small, *dims, mapping));
  VKHLO_ASSIGN_OR_RETURN(Value * g, BroadcastTo(state, block, large, *dims, Identity(dims->size())));
  return lhs_small ? std::make_pair(s, g) : std::make_pair(g, s);
}

XlaOp Binary(const char* name, OpCode code, XlaOp lhs, XlaOp rhs, const std::vector<int64_t>& broadcast_dimensions,
             std::vector<ir::NamedAttribute> attributes = {}) {
  OpCall call(name, {lhs, rhs});
  if (!call.ok()) return call.Invalid();
  BuilderState& state = call.state();
  auto operands = BroadcastOperands(state, call.block(), call.value(0), call.value(1), broadcast_dimensions);
  if (!operands.ok()) return call.Fail(operands.status());
  auto op = internal::EmitInferred(state, call.block(), code, {operands->first, operands->second}, std::move(attributes));
  if (!op.ok()) return call.Fail(op.status());
  return call.Finish((*op)->result(0));
}

const char* DirectionName(ComparisonDirection direction) {
  switch (direction) {
    case ComparisonDirection::kEq: return "EQ";
    case ComparisonDirection::kNe: return "NE";
    case ComparisonDirection::kGe: return "GE";
    case ComparisonDirection::kGt: return "GT";
    case ComparisonDirection::kLe: return "LE";
    case ComparisonDirection::kLt: return "LT";
  }
  return "EQ";
}

XlaOp CompareOp(const char* name, XlaOp lhs, XlaOp rhs, const std::vector<int64_t>& broadcast_dimensions,
                ComparisonDirection direction, ComparisonType type) {
  std::string compare_type = "FLOAT";
  if (lhs.valid() && lhs.builder() != nullptr) {
    StatusOr<Shape> shape = lhs.builder()->GetShape(lhs);
    if (shape.ok()) {
      const PrimitiveType element = shape->element_type();
      if (primitive_util::IsSignedIntegralType(element)) {
        compare_type = "SIGNED";
      } else if (primitive_util::IsUnsignedIntegralType(element) || element == PRED) {
        compare_type = "UNSIGNED";
      } else if (type == ComparisonType::kTotalOrder && primitive_util::IsFloatingPointType(element)) {
        compare_type = "TOTALORDER";
      }
    }
  }
  return Binary(name, OpCode::kCompare, lhs, rhs, broadcast_dimensions,
                {{"comparison_direction", internal::EnumAttr("comparison_direction", DirectionName(direction))},
                 {"compare_type", internal::EnumAttr("comparison_type", compare_type)}});
}

XlaOp Unary(const char* name, OpCode code, XlaOp operand, std::vector<ir::NamedAttribute> attributes = {}) {
  OpCall call(name, {operand});
  if (!call.ok()) return call.Invalid();
  auto op = internal::EmitInferred(call.state(), call.block(), code, {call.value(0)}, std::move(attributes));
  if (!op.ok()) return call.Fail(op.status());
  return call.Finish((*op)->result(0));
}

// The element type `new_element_type` as the IR's, or the error an op reports.
StatusOr<ir::ElementType> ElementTypeOf(PrimitiveType new_element_type) {
  std::optional<ir::ElementType> element = internal::ToElementType(new_element_type);
  if (!element) {
    return InvalidArgumentError(fmt::format("{} is not an array element type", PrimitiveType_Name(new_element_type)));
  }
  return *element;
}

}  // namespace

XlaOp Add(XlaOp lhs, XlaOp rhs, const std::vector<int64_t>& d) { return Binary("Add", OpCode::kAdd, lhs, rhs, d); }
XlaOp Sub(XlaOp lhs, XlaOp rhs, const std::vector<int64_t>& d) { return Binary("Sub", OpCode::kSubtract, lhs, rhs, d); }
XlaOp Mul(XlaOp lhs, XlaOp rhs, const std::vector<int64_t>& d) { return Binary("Mul", OpCode::kMultiply, lhs, rhs, d); }
XlaOp Div(XlaOp lhs, XlaOp rhs, const std::vector<int64_t>& d) { return Binary("Div", OpCode::kDivide, lhs, rhs, d); }
XlaOp Rem(XlaOp lhs, XlaOp rhs, const std::vector<int64_t>& d) { return Binary("Rem", OpCode::kRemainder, lhs, rhs, d); }
XlaOp Max(XlaOp lhs, XlaOp rhs, const std::vector<int64_t>& d) { return Binary("Max", OpCode::kMaximum, lhs, rhs, d); }
XlaOp Min(XlaOp lhs, XlaOp rhs, const std::vector<int64_t>& d) { return Binary("Min", OpCode::kMinimum, lhs, rhs, d); }
XlaOp Pow(XlaOp lhs, XlaOp rhs, const std::vector<int64_t>& d) { return Binary("Pow", OpCode::kPower, lhs, rhs, d); }
XlaOp Atan2(XlaOp y, XlaOp x, const std::vector<int64_t>& d) { return Binary("Atan2", OpCode::kAtan2, y, x, d); }
XlaOp And(XlaOp lhs, XlaOp rhs, const std::vector<int64_t>& d) { return Binary("And", OpCode::kAnd, lhs, rhs, d); }
XlaOp Or(XlaOp lhs, XlaOp rhs, const std::vector<int64_t>& d) { return Binary("Or", OpCode::kOr, lhs, rhs, d); }
XlaOp Xor(XlaOp lhs, XlaOp rhs, const std::vector<int64_t>& d) { return Binary("Xor", OpCode::kXor, lhs, rhs, d); }
XlaOp ShiftLeft(XlaOp lhs, XlaOp rhs, const std::vector<int64_t>& d) {
  return Binary("ShiftLeft", OpCode::kShiftLeft, lhs, rhs, d);
}
XlaOp ShiftRightArithmetic(XlaOp lhs, XlaOp rhs, const std::vector<int64_t>& d) {
  return Binary("ShiftRightArithmetic", OpCode::kShiftRightArithmetic, lhs, rhs, d);
}
XlaOp ShiftRightLogical(XlaOp lhs, XlaOp rhs, const std::vector<int64_t>& d) {
  return Binary("ShiftRightLogical", OpCode::kShiftRightLogical, lhs, rhs, d);
}
XlaOp Complex(XlaOp real, XlaOp imag, const std::vector<int64_t>& d) {
  return Binary("Complex", OpCode::kComplex, real, imag, d);
}

XlaOp Compare(XlaOp lhs, XlaOp rhs, const std::vector<int64_t>& d, ComparisonDirection direction,
              ComparisonType type) {
  return CompareOp("Compare", lhs, rhs, d, direction, type);
}
XlaOp Compare(XlaOp lhs, XlaOp rhs, ComparisonDirection direction) {
  return CompareOp("Compare", lhs, rhs, {}, direction, ComparisonType::kDefault);
}
#define VKHLO_COMPARISON(Name, Direction)                                                         \
  XlaOp Name(XlaOp lhs, XlaOp rhs, const std::vector<int64_t>& d) {                              \
    return CompareOp(#Name, lhs, rhs, d, ComparisonDirection::Direction, ComparisonType::kDefault); \
  }                                                                                               \
  XlaOp Name##TotalOrder(XlaOp lhs, XlaOp rhs, const std::vector<int64_t>& d) {                  \
    return CompareOp(#Name "TotalOrder", lhs, rhs, d, ComparisonDirection::Direction,             \
                     ComparisonType::kTotalOrder);                                                \
  }
VKHLO_COMPARISON(Eq, kEq)
VKHLO_COMPARISON(Ne, kNe)
VKHLO_COMPARISON(Ge, kGe)
VKHLO_COMPARISON(Gt, kGt)
VKHLO_COMPARISON(Le, kLe)
VKHLO_COMPARISON(Lt, kLt)
#undef VKHLO_COMPARISON

XlaOp Abs(XlaOp x) { return Unary("Abs", OpCode::kAbs, x); }
XlaOp Neg(XlaOp x) { return Unary("Neg", OpCode::kNegate, x); }
XlaOp Sign(XlaOp x) { return Unary("Sign", OpCode::kSign, x); }
XlaOp Exp(XlaOp x) { return Unary("Exp", OpCode::kExponential, x); }
XlaOp Expm1(XlaOp x) { return Unary("Expm1", OpCode::kExponentialMinusOne, x); }
XlaOp Log(XlaOp x) { return Unary("Log", OpCode::kLog, x); }
XlaOp Log1p(XlaOp x) { return Unary("Log1p", OpCode::kLogPlusOne, x); }
XlaOp Logistic(XlaOp x) { return Unary("Logistic", OpCode::kLogistic, x); }
XlaOp Sqrt(XlaOp x) { return Unary("Sqrt", OpCode::kSqrt, x); }
XlaOp Rsqrt(XlaOp x) { return Unary("Rsqrt", OpCode::kRsqrt, x); }
XlaOp Cbrt(XlaOp x) { return Unary("Cbrt", OpCode::kCbrt, x); }
XlaOp Sin(XlaOp x) { return Unary("Sin", OpCode::kSine, x); }
XlaOp Cos(XlaOp x) { return Unary("Cos", OpCode::kCosine, x); }
XlaOp Tan(XlaOp x) { return Unary("Tan", OpCode::kTan, x); }
XlaOp Tanh(XlaOp x) { return Unary("Tanh", OpCode::kTanh, x); }
XlaOp Floor(XlaOp x) { return Unary("Floor", OpCode::kFloor, x); }
XlaOp Ceil(XlaOp x) { return Unary("Ceil", OpCode::kCeil, x); }
XlaOp Round(XlaOp x) { return Unary("Round", OpCode::kRoundNearestAfz, x); }
XlaOp RoundNearestEven(XlaOp x) { return Unary("RoundNearestEven", OpCode::kRoundNearestEven, x); }
XlaOp Not(XlaOp x) { return Unary("Not", OpCode::kNot, x); }
XlaOp Clz(XlaOp x) { return Unary("Clz", OpCode::kCountLeadingZeros, x); }
XlaOp PopulationCount(XlaOp x) { return Unary("PopulationCount", OpCode::kPopcnt, x); }
XlaOp IsFinite(XlaOp x) { return Unary("IsFinite", OpCode::kIsFinite, x); }
XlaOp Real(XlaOp x) { return Unary("Real", OpCode::kReal, x); }
XlaOp Imag(XlaOp x) { return Unary("Imag", OpCode::kImag, x); }
XlaOp Erf(XlaOp x) { return Unary("Erf", OpCode::kChloErf, x); }
// As XLA defines it: complex(real(x), -imag(x)).
XlaOp Conj(XlaOp x) { return Complex(Real(x), Neg(Imag(x))); }
XlaOp Square(XlaOp x) { return Mul(x, x); }

XlaOp Reciprocal(XlaOp x) {
  OpCall call("Reciprocal", {x});
  if (!call.ok()) return call.Invalid();
  const ir::Type& type = call.type(0);
  if (!type.is_tensor()) return call.Fail(InvalidArgumentError("Reciprocal needs an array operand"));
  auto one = internal::EmitScalar(call.state(), call.block(), type.element_type(), 1.0);
  if (!one.ok()) return call.Fail(one.status());
  auto ones = internal::EmitBroadcastInDim(call.state(), call.block(), *one, type.dims(), {});
  if (!ones.ok()) return call.Fail(ones.status());
  auto op = internal::EmitInferred(call.state(), call.block(), OpCode::kDivide, {*ones, call.value(0)});
  if (!op.ok()) return call.Fail(op.status());
  return call.Finish((*op)->result(0));
}

XlaOp Select(XlaOp pred, XlaOp on_true, XlaOp on_false) {
  OpCall call("Select", {pred, on_true, on_false});
  if (!call.ok()) return call.Invalid();
  auto op = internal::EmitInferred(call.state(), call.block(), OpCode::kSelect, call.values());
  if (!op.ok()) return call.Fail(op.status());
  return call.Finish((*op)->result(0));
}

XlaOp Clamp(XlaOp min, XlaOp operand, XlaOp max) {
  OpCall call("Clamp", {min, operand, max});
  if (!call.ok()) return call.Invalid();
  auto op = internal::EmitInferred(call.state(), call.block(), OpCode::kClamp, call.values());
  if (!op.ok()) return call.Fail(op.status());
  return call.Finish((*op)->result(0));
}

XlaOp ConvertElementType(XlaOp operand, PrimitiveType new_element_type) {
  OpCall call("ConvertElementType", {operand});
  if (!call.ok()) return call.Invalid();
  auto element = ElementTypeOf(new_element_type);
  if (!element.ok()) return call.Fail(element.status());
  if (!call.type(0).is_tensor()) return call.Fail(InvalidArgumentError("only arrays can be converted"));
  auto op = internal::EmitTyped(call.state(), call.block(), OpCode::kConvert, {call.value(0)},
                                {call.type(0).WithElementType(*element)});
  if (!op.ok()) return call.Fail(op.status());
  return call.Finish((*op)->result(0));
}

XlaOp BitcastConvertType(XlaOp operand, PrimitiveType new_element_type) {
  OpCall call("BitcastConvertType", {operand});
  if (!call.ok()) return call.Invalid();
  auto element = ElementTypeOf(new_element_type);
  if (!element.ok()) return call.Fail(element.status());
  const ir::Type& type = call.type(0);
  if (!type.is_tensor()) return call.Fail(InvalidArgumentError("only arrays can be bitcast"));
  const int from = ir::BitWidth(type.element_type());
  const int to = ir::BitWidth(*element);
  std::vector<int64_t> dims = type.dims();
  if (from > to) {
    dims.push_back(from / to);
  } else if (from < to) {
    if (dims.empty() || dims.back() != to / from) {
      return call.Fail(InvalidArgumentError(fmt::format(
          "bitcasting {}-bit to {}-bit elements needs a last dimension of size {}", from, to, to / from)));
    }
    dims.pop_back();
  }
  auto op = internal::EmitTyped(call.state(), call.block(), OpCode::kBitcastConvert, {call.value(0)},
                                {ir::Type::Tensor(*element, dims)});
  if (!op.ok()) return call.Fail(op.status());
  return call.Finish((*op)->result(0));
}

XlaOp ReducePrecision(XlaOp operand, int exponent_bits, int mantissa_bits) {
  return Unary("ReducePrecision", OpCode::kReducePrecision, operand,
               {{"exponent_bits", ir::Attribute::Int(exponent_bits, ir::ElementType::kS32)},
                {"mantissa_bits", ir::Attribute::Int(mantissa_bits, ir::ElementType::kS32)}});
}

XlaOp Map(XlaBuilder* builder, const std::vector<XlaOp>& operands, const XlaComputation& computation,
          const std::vector<int64_t>& dimensions, const std::vector<XlaOp>& static_operands) {
  OpCall call("Map", builder, operands);
  if (!call.ok()) return call.Invalid();
  if (!static_operands.empty()) {
    return call.Fail(UnimplementedError("static_operands are not supported (StableHLO's map has none)"));
  }
  BuilderState& state = call.state();
  auto types = internal::ParameterTypes(computation, false);
  if (!types.ok()) return call.Fail(types.status());
  auto op = internal::EmitWithRegions(
      state, call.block(), OpCode::kMap, call.values(), {{"dimensions", internal::I64Array(dimensions)}}, 1, 1,
      [&](ir::Operation& map) { return internal::BuildRegion(state, map.region(0), computation, *types, false); });
  if (!op.ok()) return call.Fail(op.status());
  return call.Finish((*op)->result(0));
}

XlaOp operator-(XlaOp x) { return Neg(x); }
XlaOp operator+(XlaOp x, XlaOp y) { return Add(x, y); }
XlaOp operator-(XlaOp x, XlaOp y) { return Sub(x, y); }
XlaOp operator*(XlaOp x, XlaOp y) { return Mul(x, y); }
XlaOp operator/(XlaOp x, XlaOp y) { return Div(x, y); }
XlaOp operator%(XlaOp x, XlaOp y) { return Rem(x, y); }
XlaOp operator~(XlaOp x) { return Not(x); }
XlaOp operator!(XlaOp x) { return Not(x); }
XlaOp operator&(XlaOp x, XlaOp y) { return And(x, y); }
XlaOp operator|(XlaOp x, XlaOp y) { return Or(x, y); }
XlaOp operator^(XlaOp x, XlaOp y) { return Xor(x, y); }
XlaOp operator<<(XlaOp x, XlaOp y) { return ShiftLeft(x, y); }
XlaOp operator>>(XlaOp x, XlaOp y) {
  if (x.valid() && x.builder() != nullptr) {
    StatusOr<Shape> shape = x.builder()->GetShape(x);
    if (shape.ok() && primitive_util::IsUnsignedIntegralType(shape->element_type())) return ShiftRightLogical(x, y);
  }
  return ShiftRightArithmetic(x, y);
}

}  // namespace vkhlo
