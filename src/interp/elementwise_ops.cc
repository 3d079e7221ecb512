// Element-wise arithmetic, logic, comparison and selection ops, and stablehlo.map.
//
// Integer edge cases the spec leaves implementation-defined are decided as XLA does:
//   x / 0 = -1 (all bits set; the maximum for unsigned types), INT_MIN / -1 = INT_MIN,
//   x % 0 = x, INT_MIN % -1 = 0; shifts by >= the bit width (or a negative amount) give 0, except
//   shift_right_arithmetic, which fills with the sign bit.
#include <fmt/format.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <optional>

#include "interp/elementwise_kernels.h"
#include "interp/op_registry.h"

namespace vkhlo::interp::elementwise {
namespace {

using ir::Literal;
using ir::Operation;

template <ComplexValue C>
bool HasNan(C z) {
  return std::isnan(z.real()) || std::isnan(z.imag());
}

// --- arithmetic ---

struct AddOp {
  bool operator()(bool a, bool b) const { return a || b; }
  Int operator()(Int a, Int b) const { return a.With(a.bits + b.bits); }
  template <RealValue T> T operator()(T a, T b) const { return a + b; }
  template <ComplexValue C> C operator()(C a, C b) const { return a + b; }
};

struct SubtractOp {
  Int operator()(Int a, Int b) const { return a.With(a.bits - b.bits); }
  template <RealValue T> T operator()(T a, T b) const { return a - b; }
  template <ComplexValue C> C operator()(C a, C b) const { return a - b; }
};

struct MultiplyOp {
  bool operator()(bool a, bool b) const { return a && b; }
  Int operator()(Int a, Int b) const { return a.With(a.bits * b.bits); }
  template <RealValue T> T operator()(T a, T b) const { return a * b; }
  template <ComplexValue C> C operator()(C a, C b) const { return a * b; }
};

struct DivideOp {
  Int operator()(Int a, Int b) const {
    if (b.bits == 0) return a.With(~uint64_t{0});
    if (!a.is_signed) return a.With(a.bits / b.bits);
    if (b.s() == -1) return a.With(0 - a.bits);  // wraps INT_MIN / -1 to INT_MIN
    return a.With(static_cast<uint64_t>(a.s() / b.s()));
  }
  template <RealValue T> T operator()(T a, T b) const { return a / b; }
  template <ComplexValue C> C operator()(C a, C b) const { return a / b; }
};

struct RemainderOp {
  Int operator()(Int a, Int b) const {
    if (b.bits == 0) return a;
    if (!a.is_signed) return a.With(a.bits % b.bits);
    if (b.s() == -1) return a.With(0);
    return a.With(static_cast<uint64_t>(a.s() % b.s()));
  }
  // fmod: lhs - trunc(lhs / rhs) * rhs, exact, with the sign of lhs.
  template <RealValue T> T operator()(T a, T b) const { return std::fmod(a, b); }
  // The spec leaves complex remainder open; this is lhs - d * rhs with d the quotient with both
  // parts truncated toward zero (the real rule applied to each part of the quotient).
  template <ComplexValue C> C operator()(C a, C b) const {
    const C q = a / b;
    const C d(std::trunc(q.real()), std::trunc(q.imag()));
    return a - d * b;
  }
};

struct PowerOp {
  Int operator()(Int a, Int b) const {
    if (b.negative()) {
      // Only |base| = 1 has a non-zero integer result for a negative exponent.
      if (a.bits == 1) return a;
      if (a.is_signed && a.s() == -1) return (b.bits & 1) ? a : a.With(1);
      return a.With(0);
    }
    uint64_t base = a.bits, exponent = b.u(), result = 1;
    while (exponent != 0) {
      if (exponent & 1) result *= base;
      base *= base;
      exponent >>= 1;
    }
    return a.With(result);
  }
  template <RealValue T> T operator()(T a, T b) const {
    return static_cast<T>(std::pow(static_cast<Wide<T>>(a), static_cast<Wide<T>>(b)));
  }
  template <ComplexValue C> C operator()(C a, C b) const {
    if (a == C(0) && !HasNan(b)) {
      if (b == C(0)) return C(1);
      if (b.real() > 0) return C(0);
    }
    return Narrow<C>(std::pow(Widen(a), Widen(b)));
  }
};

// IEEE-754 maximum/minimum: NaN in, NaN out; -0 < +0. Complex values order lexicographically
// by (real, imaginary); a value with a NaN part is returned as a NaN would be.
struct MaximumOp {
  bool operator()(bool a, bool b) const { return a || b; }
  Int operator()(Int a, Int b) const { return (a.is_signed ? a.s() >= b.s() : a.bits >= b.bits) ? a : b; }
  template <RealValue T> T operator()(T a, T b) const {
    if (std::isnan(a)) return a;
    if (std::isnan(b)) return b;
    if (a == b) return std::signbit(a) ? b : a;
    return a > b ? a : b;
  }
  template <ComplexValue C> C operator()(C a, C b) const {
    if (HasNan(a)) return a;
    if (HasNan(b)) return b;
    const bool a_larger = a.real() == b.real() ? a.imag() > b.imag() : a.real() > b.real();
    return a_larger ? a : b;
  }
};

struct MinimumOp {
  bool operator()(bool a, bool b) const { return a && b; }
  Int operator()(Int a, Int b) const { return (a.is_signed ? a.s() <= b.s() : a.bits <= b.bits) ? a : b; }
  template <RealValue T> T operator()(T a, T b) const {
    if (std::isnan(a)) return a;
    if (std::isnan(b)) return b;
    if (a == b) return std::signbit(a) ? a : b;
    return a < b ? a : b;
  }
  template <ComplexValue C> C operator()(C a, C b) const {
    if (HasNan(a)) return a;
    if (HasNan(b)) return b;
    const bool a_smaller = a.real() == b.real() ? a.imag() < b.imag() : a.real() < b.real();
    return a_smaller ? a : b;
  }
};

// clamp(min, operand, max) = minimum(maximum(operand, min), max).
struct ClampOp {
  template <typename T>
    requires std::is_invocable_v<MaximumOp, T, T>
  T operator()(T lo, T x, T hi) const {
    return MinimumOp{}(MaximumOp{}(x, lo), hi);
  }
};

struct NegateOp {
  Int operator()(Int a) const { return a.With(0 - a.bits); }
  template <RealValue T> T operator()(T a) const { return -a; }
  template <ComplexValue C> C operator()(C a) const { return -a; }
};

struct AbsOp {
  Int operator()(Int a) const { return a.negative() ? a.With(0 - a.bits) : a; }
  template <RealValue T> T operator()(T a) const { return std::fabs(a); }
  template <ComplexValue C> typename C::value_type operator()(C a) const {
    return static_cast<typename C::value_type>(std::abs(Widen(a)));
  }
};

struct SignOp {
  Int operator()(Int a) const { return a.With(a.negative() ? ~uint64_t{0} : a.bits != 0 ? 1 : 0); }
  template <RealValue T> T operator()(T a) const {
    if (std::isnan(a) || a == 0) return a;  // NaN stays NaN, -0.0 and +0.0 stay
    return a < 0 ? T(-1) : T(1);
  }
  template <ComplexValue C> C operator()(C a) const {
    using T = typename C::value_type;
    if (HasNan(a)) {
      const T nan = std::numeric_limits<T>::quiet_NaN();
      return C(nan, nan);
    }
    if (a == C(0)) return a;
    const auto w = Widen(a);
    const auto magnitude = std::abs(w);
    return C(static_cast<T>(w.real() / magnitude), static_cast<T>(w.imag() / magnitude));
  }
};

// --- logic and bits ---

struct AndOp {
  bool operator()(bool a, bool b) const { return a && b; }
  Int operator()(Int a, Int b) const { return a.With(a.bits & b.bits); }
};

struct OrOp {
  bool operator()(bool a, bool b) const { return a || b; }
  Int operator()(Int a, Int b) const { return a.With(a.bits | b.bits); }
};

struct XorOp {
  bool operator()(bool a, bool b) const { return a != b; }
  Int operator()(Int a, Int b) const { return a.With(a.bits ^ b.bits); }
};

struct NotOp {
  bool operator()(bool a) const { return !a; }
  Int operator()(Int a) const { return a.With(~a.bits); }
};

struct PopcntOp {
  Int operator()(Int a) const { return a.With(static_cast<uint64_t>(std::popcount(a.u()))); }
};

struct CountLeadingZerosOp {
  Int operator()(Int a) const { return a.With(static_cast<uint64_t>(a.width - std::bit_width(a.u()))); }
};

// The shift amount is read as an unsigned number of bits (a negative amount is >= the width).
struct ShiftLeftOp {
  Int operator()(Int a, Int b) const { return b.u() >= static_cast<uint64_t>(a.width) ? a.With(0) : a.With(a.bits << b.u()); }
};

struct ShiftRightLogicalOp {
  Int operator()(Int a, Int b) const {
    return b.u() >= static_cast<uint64_t>(a.width) ? a.With(0) : a.With(a.u() >> b.u());
  }
};

struct ShiftRightArithmeticOp {
  Int operator()(Int a, Int b) const {
    const int64_t value = static_cast<int64_t>(NormalizeInt(a.bits, a.width, /*is_signed=*/true));
    const uint64_t amount = std::min<uint64_t>(b.u(), 63);
    return a.With(static_cast<uint64_t>(value >> amount));
  }
};

// --- compare ---

enum class Direction { kEq, kNe, kGe, kGt, kLe, kLt };

// Orders doubles as IEEE-754 totalOrder does: -NaN < -Inf < ... < -0 < +0 < ... < +Inf < +NaN.
int64_t TotalOrderKey(double v) {
  int64_t bits;
  std::memcpy(&bits, &v, 8);
  return bits ^ static_cast<int64_t>(static_cast<uint64_t>(bits >> 63) >> 1);
}
int32_t TotalOrderKey(float v) {
  int32_t bits;
  std::memcpy(&bits, &v, 4);
  return bits ^ static_cast<int32_t>(static_cast<uint32_t>(bits >> 31) >> 1);
}

struct CompareOp {
  Direction direction = Direction::kEq;
  bool total_order = false;

  template <typename U>
  bool Ordered(U a, U b) const {
    switch (direction) {
      case Direction::kEq: return a == b;
      case Direction::kNe: return a != b;
      case Direction::kGe: return a >= b;
      case Direction::kGt: return a > b;
      case Direction::kLe: return a <= b;
      case Direction::kLt: return a < b;
    }
    return false;
  }
  bool operator()(bool a, bool b) const { return Ordered(int{a}, int{b}); }
  bool operator()(Int a, Int b) const { return a.is_signed ? Ordered(a.s(), b.s()) : Ordered(a.bits, b.bits); }
  template <RealValue T> bool operator()(T a, T b) const {
    return total_order ? Ordered(TotalOrderKey(a), TotalOrderKey(b)) : Ordered(a, b);
  }
  // Lexicographic on (real, imaginary).
  template <ComplexValue C> bool operator()(C a, C b) const {
    const auto re = [&](auto x) { return x.real(); };
    const auto im = [&](auto x) { return x.imag(); };
    switch (direction) {
      case Direction::kEq: return re(a) == re(b) && im(a) == im(b);
      case Direction::kNe: return !(re(a) == re(b) && im(a) == im(b));
      case Direction::kGe: return re(a) > re(b) || (re(a) == re(b) && im(a) >= im(b));
      case Direction::kGt: return re(a) > re(b) || (re(a) == re(b) && im(a) > im(b));
      case Direction::kLe: return re(a) < re(b) || (re(a) == re(b) && im(a) <= im(b));
      case Direction::kLt: return re(a) < re(b) || (re(a) == re(b) && im(a) < im(b));
    }
    return false;
  }
};

// TOTALORDER on floats narrower than f32 (f16, bf16, f8, f6, f4): keys from the format's own bits
// (IEEE totalOrder is a relation of one format), since widening a NaN may change its payload.
StatusOr<Literal> NarrowTotalOrder(const CompareOp& compare, const ir::Type& type, const Literal& a, const Literal& b) {
  VKHLO_ASSIGN_OR_RETURN(Literal result, Literal::Create(type));
  const int width = ir::BitWidth(a.element_type());
  const uint32_t mask = (uint32_t{1} << width) - 1;
  auto key = [&](const Literal& l, int64_t i) {
    const uint32_t top = static_cast<uint32_t>(l.GetBits(l.is_splat() ? 0 : i) & mask) << (32 - width);
    int32_t bits;
    std::memcpy(&bits, &top, 4);
    return bits ^ static_cast<int32_t>(static_cast<uint32_t>(bits >> 31) >> 1);
  };
  for (int64_t i = 0; i < type.num_elements(); ++i) result.SetInt(i, compare.Ordered(key(a, i), key(b, i)) ? 1 : 0);
  return result;
}

// The value of an enum attribute of any enum kind, or of a string attribute.
std::optional<std::string> EnumText(const ir::Attribute* attribute) {
  if (attribute == nullptr) return std::nullopt;
  if (auto* e = attribute->as<ir::EnumValue>()) return e->value;
  if (auto* s = attribute->AsString()) return *s;
  return std::nullopt;
}

StatusOr<InterpValues> EvalCompare(EvalContext& context, const Operation& op, const InterpValues& operands) {
  CompareOp compare;
  const auto direction = EnumText(op.attribute("comparison_direction"));
  if (!direction) return context.OpError(op, "has no `comparison_direction`");
  static constexpr std::pair<std::string_view, Direction> kDirections[] = {
      {"EQ", Direction::kEq}, {"NE", Direction::kNe}, {"GE", Direction::kGe},
      {"GT", Direction::kGt}, {"LE", Direction::kLe}, {"LT", Direction::kLt}};
  bool found = false;
  for (const auto& [name, value] : kDirections) {
    if (*direction == name) {
      compare.direction = value;
      found = true;
    }
  }
  if (!found) return context.OpError(op, "has an unknown comparison_direction " + *direction);
  if (const auto type = EnumText(op.attribute("compare_type"))) {
    if (*type == "TOTALORDER") {
      compare.total_order = true;
    } else if (*type != "FLOAT" && *type != "SIGNED" && *type != "UNSIGNED" && *type != "NOTYPE") {
      return context.OpError(op, "has an unknown compare_type " + *type);
    }
  }
  // Integers compare by the signedness of their element type (constraint C3 ties compare_type
  // to it).
  return EvalElementwise(context, op, operands, 2, [&](std::span<const Literal* const> in, const ir::Type& type) {
    const ir::ElementType t = in[0]->element_type();
    if (compare.total_order && ir::IsFloat(t) && ir::BitWidth(t) < 32) return NarrowTotalOrder(compare, type, *in[0], *in[1]);
    return Map(compare, type, *in[0], *in[1]);
  });
}

// --- select, clamp ---

StatusOr<InterpValues> EvalSelect(EvalContext& context, const Operation& op, const InterpValues& operands) {
  // A copy of elements: quantized values are selected as stored.
  return EvalElementwise(
      context, op, operands, 3,
      [](std::span<const Literal* const> in, const ir::Type& type) -> StatusOr<Literal> {
        const Literal& pred = *in[0];
        if (pred.element_type() != ir::ElementType::kI1) return InvalidArgumentError("takes an i1 predicate");
        const int64_t n = type.num_elements();
        for (int k = 1; k < 3; ++k) {
          if (in[k]->num_elements() != n || in[k]->element_type() != type.element_type()) {
            return ShapeMismatch(*in[k], type);
          }
        }
        const bool pred_single = pred.is_splat() || pred.num_elements() == 1;
        if (!pred_single && pred.num_elements() != n) return ShapeMismatch(pred, type);
        if (pred_single) {
          const Literal& chosen = pred.raw()[0] != 0 ? *in[1] : *in[2];
          return Literal::FromBytes(type, std::vector<uint8_t>(chosen.raw().begin(), chosen.raw().end()));
        }
        VKHLO_ASSIGN_OR_RETURN(Literal result, Literal::Create(type));
        VKHLO_ASSIGN_OR_RETURN(std::span<uint8_t> out, result.mutable_raw());
        const size_t size = static_cast<size_t>(ir::StorageBytes(type.element_type()));
        const uint8_t* p = pred.raw().data();
        const uint8_t* t = in[1]->raw().data();
        const uint8_t* f = in[2]->raw().data();
        const size_t t_stride = in[1]->is_splat() ? 0 : size;
        const size_t f_stride = in[2]->is_splat() ? 0 : size;
        for (size_t i = 0; i < static_cast<size_t>(n); ++i) {
          std::memcpy(out.data() + i * size, p[i] ? t + i * t_stride : f + i * f_stride, size);
        }
        return result;
      },
      /*quantized_as_storage=*/true);
}

// --- map ---

StatusOr<InterpValues> EvalMapOp(EvalContext& context, const Operation& op, const InterpValues& operands) {
  if (op.num_regions() != 1 || op.num_results() != 1) return context.OpError(op, "needs one region and one result");
  const ir::Type& result_type = op.result(0)->type();
  const int64_t n = result_type.num_elements();
  std::vector<ir::Type> scalar_types;
  for (size_t k = 0; k < operands.size(); ++k) {
    if (!operands[k].is_tensor()) return context.OpError(op, fmt::format("operand {} is not a tensor", k));
    if (operands[k].literal().num_elements() != n) {
      return context.OpError(op, fmt::format("operand {} has {} elements, the result {}", k,
                                             operands[k].literal().num_elements(), n));
    }
    scalar_types.push_back(operands[k].literal().type().WithDims({}));
  }
  auto result = Literal::Create(result_type);
  if (!result.ok()) return context.OpError(op, result.status().message());
  auto out = result->mutable_raw();
  if (!out.ok()) return context.OpError(op, out.status().message());
  const size_t out_size = static_cast<size_t>(ir::StorageBytes(result_type.element_type()));
  InterpValues arguments(operands.size());
  for (int64_t i = 0; i < n; ++i) {
    for (size_t k = 0; k < operands.size(); ++k) {
      const Literal& in = operands[k].literal();
      const size_t size = static_cast<size_t>(ir::StorageBytes(in.element_type()));
      const uint8_t* element = in.raw().data() + (in.is_splat() ? 0 : static_cast<size_t>(i) * size);
      VKHLO_ASSIGN_OR_RETURN(Literal scalar,
                             Literal::FromBytes(scalar_types[k], std::vector<uint8_t>(element, element + size)));
      arguments[k] = InterpValue::Tensor(std::move(scalar));
    }
    VKHLO_ASSIGN_OR_RETURN(InterpValues values, context.EvaluateRegion(op.region(0), arguments));
    if (values.size() != 1 || !values[0].is_tensor() || values[0].literal().num_elements() != 1 ||
        ir::StorageBytes(values[0].literal().element_type()) != static_cast<int>(out_size)) {
      return context.OpError(op, "computation must return one scalar of the result's element type");
    }
    std::memcpy(out->data() + static_cast<size_t>(i) * out_size, values[0].literal().raw().data(), out_size);
  }
  return InterpValues{InterpValue::Tensor(std::move(*result))};
}

}  // namespace

void RegisterElementwiseArithmeticOps(OpRegistry& r) {
  using ir::OpCode;
  r.Register(OpCode::kAdd, EvalMap<AddOp, 2>);
  r.Register(OpCode::kSubtract, EvalMap<SubtractOp, 2>);
  r.Register(OpCode::kMultiply, EvalMap<MultiplyOp, 2>);
  r.Register(OpCode::kDivide, EvalMap<DivideOp, 2>);
  r.Register(OpCode::kRemainder, EvalMap<RemainderOp, 2>);
  r.Register(OpCode::kPower, EvalMap<PowerOp, 2>);
  r.Register(OpCode::kMaximum, EvalMap<MaximumOp, 2>);
  r.Register(OpCode::kMinimum, EvalMap<MinimumOp, 2>);
  r.Register(OpCode::kClamp, EvalMap<ClampOp, 3>);
  r.Register(OpCode::kNegate, EvalMap<NegateOp, 1>);
  r.Register(OpCode::kAbs, EvalMap<AbsOp, 1>);
  r.Register(OpCode::kSign, EvalMap<SignOp, 1>);
  r.Register(OpCode::kAnd, EvalMap<AndOp, 2>);
  r.Register(OpCode::kOr, EvalMap<OrOp, 2>);
  r.Register(OpCode::kXor, EvalMap<XorOp, 2>);
  r.Register(OpCode::kNot, EvalMap<NotOp, 1>);
  r.Register(OpCode::kPopcnt, EvalMap<PopcntOp, 1>);
  r.Register(OpCode::kCountLeadingZeros, EvalMap<CountLeadingZerosOp, 1>);
  r.Register(OpCode::kShiftLeft, EvalMap<ShiftLeftOp, 2>);
  r.Register(OpCode::kShiftRightLogical, EvalMap<ShiftRightLogicalOp, 2>);
  r.Register(OpCode::kShiftRightArithmetic, EvalMap<ShiftRightArithmeticOp, 2>);
  r.Register(OpCode::kCompare, EvalCompare);
  r.Register(OpCode::kSelect, EvalSelect);
  r.Register(OpCode::kMap, EvalMapOp);
}

}  // namespace vkhlo::interp::elementwise

namespace vkhlo::interp {

void RegisterElementwiseOps(OpRegistry& registry) {
  elementwise::RegisterElementwiseArithmeticOps(registry);
  elementwise::RegisterElementwiseMathOps(registry);
  elementwise::RegisterElementwiseConvertOps(registry);
}

}  // namespace vkhlo::interp
