// Element-wise math: rounding, roots, exponentials, logarithms, trigonometry.
//
// Transcendental functions are evaluated in a wider type (f32 and narrower in double, f64 in
// long double) and rounded once to the element type, which gives the correctly rounded result
// in all but vanishingly rare cases. Square root is computed in the element's own precision
// (IEEE squareRoot is correctly rounded there).
#include <cmath>
#include <complex>

#include "interp/elementwise_kernels.h"
#include "interp/op_registry.h"

namespace vkhlo::interp::elementwise {
namespace {

// Applies F (a function of a wide real or complex value) to real and complex elements.
template <typename F, bool kComplex = true>
struct WideMath {
  template <RealValue T> T operator()(T x) const { return static_cast<T>(F{}(static_cast<Wide<T>>(x))); }
  template <ComplexValue C>
    requires kComplex
  C operator()(C z) const {
    return Narrow<C>(F{}(Widen(z)));
  }
};

struct ExpFn {
  template <typename V> V operator()(V v) const { return std::exp(v); }
};

struct LogFn {
  template <typename V> V operator()(V v) const { return std::log(v); }
};

struct SinFn {
  template <typename V> V operator()(V v) const { return std::sin(v); }
};

struct CosFn {
  template <typename V> V operator()(V v) const { return std::cos(v); }
};

struct TanFn {
  template <typename V> V operator()(V v) const { return std::tan(v); }
};

struct TanhFn {
  template <typename V> V operator()(V v) const { return std::tanh(v); }
};

struct LogisticFn {
  template <typename V> V operator()(V v) const { return V(1) / (V(1) + std::exp(-v)); }
};

struct RsqrtFn {
  template <typename V> V operator()(V v) const { return V(1) / std::sqrt(v); }
};

// expm1 of a complex value without the cancellation of exp(z) - 1 near zero:
// exp(x + iy) - 1 = (expm1(x) cos(y) - 2 sin^2(y/2)) + i exp(x) sin(y).
struct Expm1Fn {
  template <std::floating_point W> W operator()(W v) const { return std::expm1(v); }
  template <std::floating_point W> std::complex<W> operator()(std::complex<W> z) const {
    const W x = z.real(), y = z.imag();
    if (y == 0) return {std::expm1(x), y};
    const W half_sin = std::sin(y / 2);
    return {std::expm1(x) * std::cos(y) - 2 * half_sin * half_sin, std::exp(x) * std::sin(y)};
  }
};

// log(1 + z); near zero, log|1+z| = log1p(2x + x^2 + y^2) / 2 keeps its precision.
struct Log1pFn {
  template <std::floating_point W> W operator()(W v) const { return std::log1p(v); }
  template <std::floating_point W> std::complex<W> operator()(std::complex<W> z) const {
    const W x = z.real(), y = z.imag();
    if (std::abs(z) < W(0.5)) return {std::log1p(x * (2 + x) + y * y) / 2, std::atan2(y, 1 + x)};
    return std::log(W(1) + z);
  }
};

// The principal cube root for complex values.
struct CbrtFn {
  template <std::floating_point W> W operator()(W v) const { return std::cbrt(v); }
  template <std::floating_point W> std::complex<W> operator()(std::complex<W> z) const {
    if (z == std::complex<W>(0)) return z;
    return std::pow(z, W(1) / W(3));
  }
};

struct SqrtOp {
  template <RealValue T> T operator()(T x) const { return std::sqrt(x); }
  template <ComplexValue C> C operator()(C z) const { return Narrow<C>(std::sqrt(Widen(z))); }
};

struct CeilOp {
  template <RealValue T> T operator()(T x) const { return std::ceil(x); }
};
struct FloorOp {
  template <RealValue T> T operator()(T x) const { return std::floor(x); }
};
// roundToIntegralTiesToAway.
struct RoundNearestAfzOp {
  template <RealValue T> T operator()(T x) const { return std::round(x); }
};
// roundToIntegralTiesToEven (nearbyint rounds in the default mode, to nearest even).
struct RoundNearestEvenOp {
  template <RealValue T> T operator()(T x) const { return std::nearbyint(x); }
};

struct IsFiniteOp {
  template <RealValue T> bool operator()(T x) const { return std::isfinite(x); }
};

// atan2(y, x); for complex values -i log((x + iy) / sqrt(x^2 + y^2)).
struct Atan2Op {
  template <RealValue T> T operator()(T y, T x) const {
    return static_cast<T>(std::atan2(static_cast<Wide<T>>(y), static_cast<Wide<T>>(x)));
  }
  template <ComplexValue C> C operator()(C y, C x) const {
    using W = WideComplex<C>;
    const W wy = Widen(y), wx = Widen(x);
    const W i(0, 1);
    return Narrow<C>(-i * std::log((wx + i * wy) / std::sqrt(wx * wx + wy * wy)));
  }
};

}  // namespace

void RegisterElementwiseMathOps(OpRegistry& r) {
  using ir::OpCode;
  r.Register(OpCode::kExponential, EvalMap<WideMath<ExpFn>, 1>);
  r.Register(OpCode::kExponentialMinusOne, EvalMap<WideMath<Expm1Fn>, 1>);
  r.Register(OpCode::kLog, EvalMap<WideMath<LogFn>, 1>);
  r.Register(OpCode::kLogPlusOne, EvalMap<WideMath<Log1pFn>, 1>);
  r.Register(OpCode::kLogistic, EvalMap<WideMath<LogisticFn>, 1>);
  r.Register(OpCode::kSine, EvalMap<WideMath<SinFn>, 1>);
  r.Register(OpCode::kCosine, EvalMap<WideMath<CosFn>, 1>);
  r.Register(OpCode::kTan, EvalMap<WideMath<TanFn>, 1>);
  r.Register(OpCode::kTanh, EvalMap<WideMath<TanhFn>, 1>);
  r.Register(OpCode::kRsqrt, EvalMap<WideMath<RsqrtFn>, 1>);
  r.Register(OpCode::kCbrt, EvalMap<WideMath<CbrtFn>, 1>);
  r.Register(OpCode::kSqrt, EvalMap<SqrtOp, 1>);
  r.Register(OpCode::kCeil, EvalMap<CeilOp, 1>);
  r.Register(OpCode::kFloor, EvalMap<FloorOp, 1>);
  r.Register(OpCode::kRoundNearestAfz, EvalMap<RoundNearestAfzOp, 1>);
  r.Register(OpCode::kRoundNearestEven, EvalMap<RoundNearestEvenOp, 1>);
  r.Register(OpCode::kIsFinite, EvalMap<IsFiniteOp, 1>);
  r.Register(OpCode::kAtan2, EvalMap<Atan2Op, 2>);
}

}  // namespace vkhlo::interp::elementwise
