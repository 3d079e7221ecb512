// The element-wise chlo ops that have a direct definition: the elementary functions the C++
// library provides, the predicates, and the implicitly broadcasting binary ops (chlo.broadcast_*
// with numpy-style broadcasting). chlo is normally decomposed into StableHLO before execution;
// these let the interpreter run such programs as written. Of the special functions without a
// library definition, erf_inv and digamma are here; polygamma, zeta, bessel_i1e are left out.
#include <fmt/format.h>
#include <math.h>  // lgamma_r

#include <array>
#include <cmath>
#include <complex>
#include <cstring>
#include <limits>

#include "interp/elementwise_kernels.h"
#include "interp/op_registry.h"

namespace vkhlo::interp::elementwise {
namespace {

using ir::Literal;
using ir::OpCode;
using ir::Operation;

// Real and complex elementary functions, evaluated wide and rounded once.
template <typename F>
struct Elementary {
  template <RealValue T> T operator()(T x) const { return static_cast<T>(F{}(static_cast<Wide<T>>(x))); }
  template <ComplexValue C> C operator()(C z) const { return Narrow<C>(F{}(Widen(z))); }
};

// Real-only functions.
template <typename F>
struct RealOnly {
  template <RealValue T> T operator()(T x) const { return static_cast<T>(F{}(static_cast<Wide<T>>(x))); }
};

#define VKHLO_STD_FN(Name, fn)                                        \
  struct Name {                                                        \
    template <typename V> V operator()(V v) const { return std::fn(v); } \
  };
VKHLO_STD_FN(AcosFn, acos)
VKHLO_STD_FN(AcoshFn, acosh)
VKHLO_STD_FN(AsinFn, asin)
VKHLO_STD_FN(AsinhFn, asinh)
VKHLO_STD_FN(AtanFn, atan)
VKHLO_STD_FN(AtanhFn, atanh)
VKHLO_STD_FN(CoshFn, cosh)
VKHLO_STD_FN(SinhFn, sinh)
VKHLO_STD_FN(TanFn, tan)
VKHLO_STD_FN(ErfFn, erf)
VKHLO_STD_FN(ErfcFn, erfc)
#undef VKHLO_STD_FN

// log|gamma(x)|, through the reentrant glibc functions (std::lgamma writes the global signgam,
// a race when process-grid threads evaluate it at once).
struct LgammaFn {
  double operator()(double v) const {
    int sign;
    return lgamma_r(v, &sign);
  }
  long double operator()(long double v) const {
    int sign;
    return lgammal_r(v, &sign);
  }
};

// The inverse of erf: Newton's method on erf (or on erfc near +-1, where erf has no digits left),
// from a rough start, in the wide type.
struct ErfInvFn {
  template <std::floating_point W> W operator()(W x) const {
    if (std::isnan(x) || x < -1 || x > 1) return std::numeric_limits<W>::quiet_NaN();
    if (x == 1 || x == -1) return std::copysign(std::numeric_limits<W>::infinity(), x);
    if (x == 0) return x;
    const W a = std::fabs(x);
    const W tail = 1 - a;  // exact for a >= 0.5
    // Start: the inverse of erf(y) ~ sign * sqrt(1 - exp(-y^2 (4/pi + 0.147 y^2) / (1 + 0.147 y^2))).
    const W k = W(0.147), two_over_pi_k = 2 / (W(3.14159265358979323846264338327950288L) * k);
    const W l = std::log((1 - a) * (1 + a));
    W y = std::sqrt(std::sqrt((two_over_pi_k + l / 2) * (two_over_pi_k + l / 2) - l / k) - (two_over_pi_k + l / 2));
    const W two_over_sqrt_pi = W(1.12837916709551257389615890312154517L);
    for (int i = 0; i < 60; ++i) {
      const W residual = a < W(0.5) ? std::erf(y) - a : tail - std::erfc(y);
      const W step = residual / (two_over_sqrt_pi * std::exp(-y * y));
      y -= step;
      if (!(std::fabs(step) > std::fabs(y) * std::numeric_limits<W>::epsilon())) break;
    }
    return std::copysign(y, x);
  }
};

// digamma (psi): reflection below 1/2, recurrence up to 20, then the asymptotic series. NaN at
// the poles (zero and the negative integers), as XLA.
struct DigammaFn {
  template <std::floating_point W> W operator()(W x) const {
    if (std::isnan(x) || x == -std::numeric_limits<W>::infinity()) return std::numeric_limits<W>::quiet_NaN();
    if (x == std::numeric_limits<W>::infinity()) return x;
    if (x <= 0 && x == std::floor(x)) return std::numeric_limits<W>::quiet_NaN();
    const W pi = W(3.14159265358979323846264338327950288L);
    W reflection = 0;
    if (x < W(0.5)) {
      reflection = -pi / std::tan(pi * (x - std::floor(x)));  // tan has period pi: reduce exactly
      x = 1 - x;
    }
    W result = reflection;
    while (x < 20) {
      result -= 1 / x;
      x += 1;
    }
    const W inv2 = 1 / (x * x);
    const W series =
        inv2 * (W(1) / 12 - inv2 * (W(1) / 120 - inv2 * (W(1) / 252 - inv2 * (W(1) / 240 - inv2 * (W(1) / 132)))));
    return result + std::log(x) - 1 / (2 * x) - series;
  }
};

struct ConjOp {
  template <RealValue T> T operator()(T x) const { return x; }
  template <ComplexValue C> C operator()(C z) const { return std::conj(z); }
};

struct SquareOp {
  Int operator()(Int a) const { return a.With(a.bits * a.bits); }
  template <RealValue T> T operator()(T x) const { return x * x; }
  template <ComplexValue C> C operator()(C z) const { return z * z; }
};

struct IsInfOp {
  template <RealValue T> bool operator()(T x) const { return std::isinf(x); }
};
struct IsPosInfOp {
  template <RealValue T> bool operator()(T x) const { return std::isinf(x) && x > 0; }
};
struct IsNegInfOp {
  template <RealValue T> bool operator()(T x) const { return std::isinf(x) && x < 0; }
};

// The high half of the double-width product.
struct MulhiOp {
  Int operator()(Int a, Int b) const {
    if (a.is_signed) {
      const __int128 p = static_cast<__int128>(a.s()) * static_cast<__int128>(b.s());
      return a.With(static_cast<uint64_t>(p >> a.width));
    }
    const unsigned __int128 p = static_cast<unsigned __int128>(a.bits) * b.bits;
    return a.With(static_cast<uint64_t>(p >> a.width));
  }
};

// --- implicit broadcasting ---

// `x` broadcast to `dims`: operand dimension i goes to result dimension map[i] and is either of
// the result's size or of size 1.
StatusOr<Literal> BroadcastTo(const Literal& x, const std::vector<int64_t>& dims, const std::vector<int64_t>& map) {
  const ir::Type type = x.type().WithDims(dims);
  if (x.type().dims() == dims) return x;
  const int64_t rank = static_cast<int64_t>(dims.size());
  std::vector<int64_t> stride(dims.size(), 0);
  int64_t s = 1;
  for (int64_t i = x.type().rank() - 1; i >= 0; --i) {
    const int64_t d = map[static_cast<size_t>(i)];
    if (d < 0 || d >= rank) return InvalidArgumentError("broadcast dimension out of range");
    const int64_t size = x.type().dim(i);
    if (size != dims[static_cast<size_t>(d)] && size != 1) {
      return InvalidArgumentError(fmt::format("cannot broadcast {} to {}", x.type().ToString(), type.ToString()));
    }
    if (size != 1) stride[static_cast<size_t>(d)] = s;
    s *= size;
  }
  if (x.is_splat() || x.num_elements() == 1) {
    const size_t size = static_cast<size_t>(ir::StorageBytes(x.element_type()));
    return Literal::FromBytes(type, std::vector<uint8_t>(x.raw().begin(), x.raw().begin() + static_cast<long>(size)));
  }
  VKHLO_ASSIGN_OR_RETURN(Literal result, Literal::Create(type));
  VKHLO_ASSIGN_OR_RETURN(std::span<uint8_t> out, result.mutable_raw());
  const size_t size = static_cast<size_t>(ir::StorageBytes(x.element_type()));
  std::vector<int64_t> index(dims.size(), 0);
  int64_t source = 0;
  for (int64_t i = 0; i < type.num_elements(); ++i) {
    std::memcpy(out.data() + static_cast<size_t>(i) * size, x.raw().data() + static_cast<size_t>(source) * size, size);
    for (int64_t d = rank - 1; d >= 0; --d) {
      const size_t k = static_cast<size_t>(d);
      ++index[k];
      source += stride[k];
      if (index[k] < dims[k]) break;
      source -= stride[k] * index[k];
      index[k] = 0;
    }
  }
  return result;
}

// The StableHLO op evaluating each chlo.broadcast_* op once its operands have the result shape.
std::array<OpEvaluator, 512>& BroadcastTargets() {
  static std::array<OpEvaluator, 512> targets{};
  return targets;
}

StatusOr<InterpValues> EvalBroadcasting(EvalContext& context, const Operation& op, const InterpValues& operands) {
  OpEvaluator target = BroadcastTargets()[static_cast<size_t>(op.code())];
  if (target == nullptr) return context.Unimplemented(op, "no element-wise counterpart");
  if (op.num_results() != 1 || !op.result(0)->type().is_tensor()) return context.OpError(op, "must have one tensor result");
  const std::vector<int64_t>& dims = op.result(0)->type().dims();
  const int64_t rank = static_cast<int64_t>(dims.size());
  std::optional<std::vector<int64_t>> explicit_map;
  if (const ir::Attribute* a = op.attribute("broadcast_dimensions")) explicit_map = a->AsI64Vector();
  InterpValues broadcast;
  for (const InterpValue& operand : operands) {
    if (!operand.is_tensor()) return context.OpError(op, "operands must be tensors");
    const Literal& x = operand.literal();
    std::vector<int64_t> map;
    if (explicit_map && x.type().rank() < rank && static_cast<int64_t>(explicit_map->size()) == x.type().rank()) {
      map = *explicit_map;
    } else {
      for (int64_t i = 0; i < x.type().rank(); ++i) map.push_back(rank - x.type().rank() + i);
    }
    auto b = BroadcastTo(x, dims, map);
    if (!b.ok()) return context.OpError(op, b.status().message());
    broadcast.push_back(InterpValue::Tensor(std::move(*b)));
  }
  return target(context, op, broadcast);
}

// chlo.constant_like: the scalar `value` (converted to the result's element type) in the shape
// of the operand.
StatusOr<InterpValues> EvalConstantLike(EvalContext& context, const Operation& op, const InterpValues& operands) {
  const ir::Attribute* value = op.attribute("value");
  if (value == nullptr) return context.OpError(op, "has no `value`");
  Literal scalar;
  if (const Literal* dense = value->AsDenseElements()) {
    if (dense->num_elements() < 1) return context.OpError(op, "has an empty `value`");
    const size_t size = static_cast<size_t>(ir::StorageBytes(dense->element_type()));
    scalar = *Literal::FromBytes(dense->type().WithDims({}), std::vector<uint8_t>(dense->raw().begin(),
                                                                                 dense->raw().begin() + static_cast<long>(size)));
  } else if (const auto* i = value->as<ir::IntegerValue>()) {
    scalar = *Literal::Create(ir::Type::Scalar(i->type));
    scalar.SetBits(0, i->bits);
  } else if (const auto* f = value->as<ir::FloatValue>()) {
    scalar = *Literal::Create(ir::Type::Scalar(f->type));
    scalar.SetBits(0, f->bits);
  } else if (auto b = value->AsBool()) {
    scalar = *Literal::Create(ir::Type::Scalar(ir::ElementType::kI1));
    scalar.SetInt(0, *b ? 1 : 0);
  } else {
    return context.OpError(op, "has a `value` that is not a scalar");
  }
  (void)operands;
  if (op.num_results() != 1 || !op.result(0)->type().is_tensor()) return context.OpError(op, "must have one tensor result");
  const ir::Type& type = op.result(0)->type();
  auto splat = Literal::FromBytes(type.WithElementType(scalar.element_type()),
                                  std::vector<uint8_t>(scalar.raw().begin(), scalar.raw().end()));
  if (!splat.ok()) return context.OpError(op, splat.status().message());
  auto result = ConvertLiteral(*splat, type);
  if (!result.ok()) return context.OpError(op, result.status().message());
  return InterpValues{InterpValue::Tensor(std::move(*result))};
}

}  // namespace

void RegisterElementwiseChloOps(OpRegistry& r) {
  r.Register(OpCode::kChloAcos, EvalMap<Elementary<AcosFn>, 1>);
  r.Register(OpCode::kChloAcosh, EvalMap<Elementary<AcoshFn>, 1>);
  r.Register(OpCode::kChloAsin, EvalMap<Elementary<AsinFn>, 1>);
  r.Register(OpCode::kChloAsinh, EvalMap<Elementary<AsinhFn>, 1>);
  r.Register(OpCode::kChloAtan, EvalMap<Elementary<AtanFn>, 1>);
  r.Register(OpCode::kChloAtanh, EvalMap<Elementary<AtanhFn>, 1>);
  r.Register(OpCode::kChloCosh, EvalMap<Elementary<CoshFn>, 1>);
  r.Register(OpCode::kChloSinh, EvalMap<Elementary<SinhFn>, 1>);
  r.Register(OpCode::kChloTan, EvalMap<Elementary<TanFn>, 1>);
  r.Register(OpCode::kChloErf, EvalMap<RealOnly<ErfFn>, 1>);
  r.Register(OpCode::kChloErfc, EvalMap<RealOnly<ErfcFn>, 1>);
  r.Register(OpCode::kChloLgamma, EvalMap<RealOnly<LgammaFn>, 1>);
  r.Register(OpCode::kChloErfInv, EvalMap<RealOnly<ErfInvFn>, 1>);
  r.Register(OpCode::kChloDigamma, EvalMap<RealOnly<DigammaFn>, 1>);
  r.Register(OpCode::kChloConj, EvalMap<ConjOp, 1>);
  r.Register(OpCode::kChloSquare, EvalMap<SquareOp, 1>);
  r.Register(OpCode::kChloIsInf, EvalMap<IsInfOp, 1>);
  r.Register(OpCode::kChloIsPosInf, EvalMap<IsPosInfOp, 1>);
  r.Register(OpCode::kChloIsNegInf, EvalMap<IsNegInfOp, 1>);
  r.Register(OpCode::kChloMulhi, EvalMap<MulhiOp, 2>);
  r.Register(OpCode::kChloConstantLike, EvalConstantLike);

  // The broadcasting ops reuse the StableHLO ops registered before this (elementwise_ops.cc).
  static constexpr std::pair<OpCode, OpCode> kBroadcasting[] = {
      {OpCode::kChloBroadcastAdd, OpCode::kAdd},         {OpCode::kChloBroadcastSubtract, OpCode::kSubtract},
      {OpCode::kChloBroadcastMultiply, OpCode::kMultiply}, {OpCode::kChloBroadcastDivide, OpCode::kDivide},
      {OpCode::kChloBroadcastMaximum, OpCode::kMaximum}, {OpCode::kChloBroadcastMinimum, OpCode::kMinimum},
      {OpCode::kChloBroadcastCompare, OpCode::kCompare}, {OpCode::kChloBroadcastAnd, OpCode::kAnd},
      {OpCode::kChloBroadcastOr, OpCode::kOr},           {OpCode::kChloBroadcastXor, OpCode::kXor},
      {OpCode::kChloBroadcastPower, OpCode::kPower},     {OpCode::kChloBroadcastRemainder, OpCode::kRemainder},
      {OpCode::kChloBroadcastAtan2, OpCode::kAtan2},     {OpCode::kChloBroadcastSelect, OpCode::kSelect},
  };
  for (const auto& [chlo, stablehlo] : kBroadcasting) {
    BroadcastTargets()[static_cast<size_t>(chlo)] = r.Find(stablehlo);
    if (r.Find(stablehlo) != nullptr) r.Register(chlo, EvalBroadcasting);
  }
}

}  // namespace vkhlo::interp::elementwise
