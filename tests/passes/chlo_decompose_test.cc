// The chlo decompositions, run: each chlo op is parsed into a one-op function, decomposed by
// the chlo-decompose pass (no chlo op may remain), evaluated by the reference interpreter, and
// compared with a high-precision host reference (long double: the C library where it has the
// function, series and recurrences otherwise) over edge cases (0, -0, +-inf, NaN, tiny, huge,
// poles) and a few thousand random inputs per type.
//
// Errors are counted in ulps of the result type at the reference value; for functions with
// zeros inside their domain where an absolute error is the natural measure (lgamma at 1 and 2,
// digamma at 1.46...), the ulp is taken at max(|reference|, floor). The bound asserted for each
// function and type is in its table row; docs/design.md lists the measured maxima.
#include <gtest/gtest.h>
#include <math.h>  // lgammal_r

#include <cmath>
#include <complex>
#include <functional>
#include <limits>
#include <random>
#include <string>

#include "frontend/parser.h"
#include "interp/interpreter.h"
#include "ir/walk.h"
#include "passes/pipeline.h"
#include "verify/verifier.h"

namespace vkhlo {
namespace {

using ir::ElementType;
using ir::Literal;
using ir::Type;
using LD = long double;
using CLD = std::complex<long double>;

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr LD kPiL = 3.141592653589793238462643383279502884L;

std::string TypeText(const Type& type) { return type.ToString(); }

// Parses `op(operands) {attributes}` into @main, decomposes it, and runs it.
StatusOr<std::vector<Literal>> RunChlo(const std::string& op, const std::vector<Literal>& operands,
                                       const std::vector<Type>& results, const std::string& attributes = "") {
  std::string text = "func.func @main(";
  std::string operand_list, operand_types, result_types;
  for (size_t i = 0; i < operands.size(); ++i) {
    const std::string sep = i == 0 ? "" : ", ";
    text += sep + "%a" + std::to_string(i) + ": " + TypeText(operands[i].type());
    operand_list += sep + "%a" + std::to_string(i);
    operand_types += sep + TypeText(operands[i].type());
  }
  for (size_t i = 0; i < results.size(); ++i) result_types += (i == 0 ? "" : ", ") + TypeText(results[i]);
  std::string returned;
  for (size_t i = 0; i < results.size(); ++i) returned += (i == 0 ? "%0#" : ", %0#") + std::to_string(i);
  text += ") -> (" + result_types + ") {\n";
  text += "  %0:" + std::to_string(results.size()) + " = \"" + op + "\"(" + operand_list + ") " + attributes + " : (" +
          operand_types + ") -> (" + result_types + ")\n";
  text += "  return " + returned + " : " + result_types + "\n}\n";
  VKHLO_ASSIGN_OR_RETURN(auto module, frontend::ParseModule(text));
  VKHLO_RETURN_IF_ERROR(verify::VerifyModule(*module));
  VKHLO_ASSIGN_OR_RETURN(auto pipeline, passes::PassPipeline::Parse("chlo-decompose"));
  VKHLO_RETURN_IF_ERROR(pipeline.Run(*module).status());
  bool chlo_left = false;
  ir::WalkOps(*module, [&](ir::Operation& o) { chlo_left |= o.info().kind == ir::OpKind::kChlo; });
  if (chlo_left) return InternalError("a chlo op survived the decomposition");
  interp::InterpValues inputs;
  for (const Literal& l : operands) inputs.push_back(interp::InterpValue::Tensor(l));
  VKHLO_ASSIGN_OR_RETURN(interp::RunResult run, interp::RunFunction(*module, "main", std::move(inputs)));
  std::vector<Literal> out;
  for (const auto& v : run.outputs) out.push_back(v.literal());
  return out;
}

Literal Floats(ElementType type, const std::vector<double>& values) {
  Literal l = *Literal::Create(Type::Tensor(type, {static_cast<int64_t>(values.size())}));
  for (size_t i = 0; i < values.size(); ++i) l.SetFloat(static_cast<int64_t>(i), values[i]);
  return l;
}

Literal Complexes(ElementType type, const std::vector<std::complex<double>>& values) {
  Literal l = *Literal::Create(Type::Tensor(type, {static_cast<int64_t>(values.size())}));
  for (size_t i = 0; i < values.size(); ++i) l.SetComplex(static_cast<int64_t>(i), values[i]);
  return l;
}

// --- error measure ---

// |got - ref| in ulps of `type` (f32 or f64) at max(|ref|, floor). Non-finite references must
// be matched exactly (any NaN for NaN); a reference that overflows the type must give inf.
double UlpError(double got, LD ref, bool f64, LD floor = 0) {
  if (std::isnan(ref)) return std::isnan(got) ? 0 : kInf;
  const LD rounded = f64 ? static_cast<LD>(static_cast<double>(ref)) : static_cast<LD>(static_cast<float>(ref));
  if (std::isinf(rounded)) return got == static_cast<double>(rounded) ? 0 : kInf;
  if (!std::isfinite(got)) return kInf;
  const LD scale = std::max(std::fabs(ref), floor);
  int exponent = 0;
  std::frexp(scale, &exponent);
  const int precision = f64 ? 53 : 24;
  const LD min_ulp = f64 ? std::ldexp(1.0L, -1074) : std::ldexp(1.0L, -149);
  const LD ulp = std::max(std::ldexp(1.0L, exponent - precision), min_ulp);
  return static_cast<double>(std::fabs(static_cast<LD>(got) - ref) / ulp);
}

// --- inputs ---

std::vector<double> EdgeCases(bool f64) {
  const double tiny = f64 ? std::numeric_limits<double>::denorm_min() : std::numeric_limits<float>::denorm_min();
  const double min_normal = f64 ? std::numeric_limits<double>::min() : std::numeric_limits<float>::min();
  const double huge = f64 ? std::numeric_limits<double>::max() : std::numeric_limits<float>::max();
  const double eps = f64 ? std::numeric_limits<double>::epsilon() : std::numeric_limits<float>::epsilon();
  std::vector<double> v = {0.0, -0.0, kInf, -kInf, kNaN, tiny, -tiny, min_normal, -min_normal, huge, -huge,
                           1.0, -1.0, 0.5, -0.5, 1 + eps, 1 - eps / 2, -1 - eps, -1 + eps / 2, 2.0, -2.0, 3.0,
                           -3.0, 10.0, -10.0, 1e-10, -1e-10, 1e10, -1e10};
  return v;
}

// `count` values: log-uniform magnitudes in [lo, hi] with both signs, and uniform ones in
// [-linear, linear].
std::vector<double> RandomValues(size_t count, double lo, double hi, double linear, bool positive_only = false,
                                 uint64_t seed = 1) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> log_mag(std::log(lo), std::log(hi)), unit(-1, 1);
  std::vector<double> v;
  for (size_t i = 0; i < count; ++i) {
    double x = i % 2 == 0 ? std::exp(log_mag(rng)) : linear * unit(rng);
    if (i % 4 == 0 && !positive_only) x = -x;
    if (positive_only) x = std::fabs(x);
    v.push_back(x);
  }
  return v;
}

std::vector<double> RoundTo(const std::vector<double>& values, bool f64) {
  std::vector<double> out;
  for (double x : values) out.push_back(f64 ? x : static_cast<double>(static_cast<float>(x)));
  return out;
}

// --- references (long double) ---

LD ErfInvRef(LD y) {
  if (std::isnan(y) || y < -1 || y > 1) return NAN;
  if (y == 1 || y == -1) return std::copysign(static_cast<LD>(INFINITY), y);
  if (y == 0) return y;
  const LD a = std::fabs(y);
  if (a < 1e-30L) return y * std::sqrt(kPiL) / 2;  // erf_inv(y) = sqrt(pi)/2 (y + O(y^3))
  LD x = 0;
  // Bisection to a bracket, then Newton (on erfc near 1 to keep digits).
  LD lo = 0, hi = 30;
  for (int i = 0; i < 200; ++i) {
    const LD mid = (lo + hi) / 2;
    const bool below = a < 0.5L ? std::erf(mid) < a : std::erfc(mid) > 1 - a;
    (below ? lo : hi) = mid;
  }
  x = (lo + hi) / 2;
  for (int i = 0; i < 8; ++i) {
    const LD r = a < 0.5L ? std::erf(x) - a : (1 - a) - std::erfc(x);
    const LD d = 2 / std::sqrt(kPiL) * std::exp(-x * x);
    if (d == 0) break;
    x -= r / d;
  }
  return std::copysign(x, y);
}

LD LgammaRef(LD x) {
  int sign;
  return lgammal_r(x, &sign);
}

// digamma: reflection below 1/2, recurrence up to 30, asymptotic series. NaN at the poles
// (as XLA defines them).
LD DigammaRef(LD x) {
  if (std::isnan(x) || x == -INFINITY) return NAN;
  if (x == INFINITY) return x;
  if (x <= 0 && x == std::floor(x)) return NAN;
  LD result = 0;
  if (x < 0.5L) {
    result = -kPiL / std::tan(kPiL * (x - std::nearbyint(x)));  // exact reduction, tiny x kept
    x = 1 - x;
  }
  while (x < 30) {
    result -= 1 / x;
    x += 1;
  }
  const LD inv2 = 1 / (x * x);
  const LD series = inv2 * (1.0L / 12 - inv2 * (1.0L / 120 - inv2 * (1.0L / 252 - inv2 * (1.0L / 240 - inv2 * (1.0L / 132 - inv2 * (691.0L / 32760 - inv2 / 12))))));
  return result + std::log(x) - 1 / (2 * x) - series;
}

// Hurwitz zeta for x > 1, q > 0: 40 terms, then Euler-Maclaurin with 10 Bernoulli terms.
LD ZetaRef(LD x, LD q) {
  static const LD kB2j[] = {1.0L / 6, -1.0L / 30, 1.0L / 42, -1.0L / 30, 5.0L / 66, -691.0L / 2730, 7.0L / 6,
                            -3617.0L / 510, 43867.0L / 798, -174611.0L / 330};
  const int n = 40;
  LD sum = 0;
  for (int k = 0; k < n; ++k) sum += std::pow(q + k, -x);
  const LD a = q + n;
  sum += std::pow(a, 1 - x) / (x - 1) + std::pow(a, -x) / 2;
  LD factorial = 1, rising = x, power = std::pow(a, -x - 1);
  for (int j = 1; j <= 10; ++j) {
    factorial *= (2 * j - 1) * (2 * j);
    sum += kB2j[j - 1] / factorial * rising * power;
    rising *= (x + 2 * j - 1) * (x + 2 * j);
    power /= a * a;
  }
  return sum;
}

LD PolygammaRef(LD n, LD x) {
  if (n == 0) return DigammaRef(x);
  return (static_cast<long>(n) % 2 == 1 ? 1 : -1) * std::tgamma(n + 1) * ZetaRef(n + 1, x);
}

// exp(-|x|) I1(x): the power series (long double has range enough up to |x| = 500), the
// asymptotic expansion beyond.
LD BesselI1eRef(LD x) {
  if (std::isnan(x)) return x;
  const LD a = std::fabs(x);
  LD r;
  if (a <= 500) {
    LD term = a / 2, sum = 0;
    const LD q = a * a / 4;
    for (int k = 0; k < 2000 && term != 0; ++k) {
      sum += term;
      term *= q / ((k + 1) * (k + 2));
      if (term < sum * 1e-22L) break;
    }
    r = sum * std::exp(-a);
  } else {
    // 1/sqrt(2 pi a) * sum_k (-1)^k prod_{j<=k} (4 - (2j-1)^2) / (k! (8a)^k)
    LD term = 1, sum = 1;
    for (int k = 1; k < 30; ++k) {
      term *= -(4 - static_cast<LD>((2 * k - 1) * (2 * k - 1))) / (k * 8 * a);
      sum += term;
    }
    r = sum / std::sqrt(2 * kPiL * a);
  }
  return std::copysign(r, x);
}

// exp(x + h) + sign * exp(h - x), h = log(1/2), both arguments rounded to the element type (the
// additions are the type's own, so they round once), the exponentials exact.
LD ChloHalfExps(LD x, bool f64, int sign) {
  LD up, down;
  if (f64) {
    const double h = std::log(0.5), xd = static_cast<double>(x);
    up = xd + h;
    down = h - xd;
  } else {
    const float h = static_cast<float>(std::log(0.5)), xf = static_cast<float>(x);
    up = xf + h;
    down = h - xf;
  }
  return std::exp(up) + sign * std::exp(down);
}

// --- real unary functions ---

struct UnaryCase {
  const char* op;
  std::function<LD(LD)> reference;
  double bound_f32;
  double bound_f64;
  std::vector<double> extra;  // function-specific inputs
  double linear = 10;         // the uniform inputs span [-linear, linear]
  double hi = 1e30;           // log-uniform magnitudes up to this (capped by the type)
  LD floor = 0;
  // When set, the reference for the element type (f64 or f32) instead of `reference`.
  std::function<LD(LD, bool f64)> typed_reference = nullptr;
};

void CheckUnary(const UnaryCase& c) {
  for (bool f64 : {false, true}) {
    SCOPED_TRACE(std::string(c.op) + (f64 ? " f64" : " f32"));
    std::vector<double> xs = EdgeCases(f64);
    for (double x : c.extra) xs.push_back(x);
    const double cap = f64 ? c.hi : std::min(c.hi, 1e30);
    for (double x : RandomValues(3000, f64 ? 1e-300 : 1e-38, cap, c.linear)) xs.push_back(x);
    xs = RoundTo(xs, f64);
    const ElementType type = f64 ? ElementType::kF64 : ElementType::kF32;
    Literal input = Floats(type, xs);
    auto out = RunChlo(c.op, {input}, {input.type()});
    ASSERT_TRUE(out.ok()) << out.status().message();
    double worst = 0, worst_x = 0;
    for (size_t i = 0; i < xs.size(); ++i) {
      const double got = (*out)[0].GetFloat(static_cast<int64_t>(i));
      const LD x = static_cast<LD>(xs[i]);
      const double err = UlpError(got, c.typed_reference ? c.typed_reference(x, f64) : c.reference(x), f64, c.floor);
      if (err > worst || std::isnan(err)) {
        worst = err;
        worst_x = xs[i];
      }
    }
    std::printf("%-18s %s: max error %.2f ulp (at %.17g)\n", c.op, f64 ? "f64" : "f32", worst, worst_x);
    EXPECT_LE(worst, f64 ? c.bound_f64 : c.bound_f32) << "at x = " << worst_x;
  }
}

std::vector<double> Poles() { return {-1, -2, -3, -10, -100, -0.5, -1.5, -2.5, 1e-30, -1e-30, 1.4616321449683623, 1, 2}; }
std::vector<double> UnitInterval() {
  std::vector<double> v;
  for (int k = 1; k <= 52; ++k) {
    v.push_back(1 - std::ldexp(1.0, -k));
    v.push_back(-1 + std::ldexp(1.0, -k));
  }
  return v;
}
std::vector<double> Uniform(size_t n, double lo, double hi, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> d(lo, hi);
  std::vector<double> v;
  for (size_t i = 0; i < n; ++i) v.push_back(d(rng));
  return v;
}

TEST(ChloDecomposeAccuracy, ErrorFunctions) {
  // f32 erf is XLA's rational approximation (4.5 ulps near the clamp at 3.74).
  CheckUnary({"chlo.erf", [](LD x) { return std::erf(x); }, 5, 4, Uniform(500, -6, 6, 2)});
  // erfc below 1 is 1 - erf (Cephes), which magnifies erf's error up to 5x near 1.
  CheckUnary({"chlo.erfc", [](LD x) { return std::erfc(x); }, 8, 8, Uniform(500, -3, 27, 3)});
  std::vector<double> inv = UnitInterval();
  for (double x : Uniform(2000, -1, 1, 4)) inv.push_back(x);
  CheckUnary({"chlo.erf_inv", ErfInvRef, 8, 8, inv, 1, 1});
}

TEST(ChloDecomposeAccuracy, GammaFunctions) {
  std::vector<double> extra = Poles();
  for (double x : Uniform(1000, -30, 30, 5)) extra.push_back(x);
  // The reflection formula cancels near lgamma's zeros between the negative poles (absolute
  // errors of a few ulps of the terms, counted at ulp(1)).
  CheckUnary({"chlo.lgamma", LgammaRef, 32, 20, extra, 100, 1e30, 1});
  CheckUnary({"chlo.digamma", DigammaRef, 16, 16, extra, 100, 1e30, 1});
}

TEST(ChloDecomposeAccuracy, BesselI1e) {
  CheckUnary({"chlo.bessel_i1e", BesselI1eRef, 10, 8, Uniform(500, -20, 20, 6), 100, 1e30});
}

TEST(ChloDecomposeAccuracy, InverseTrigAndHyperbolic) {
  std::vector<double> unit = UnitInterval();
  for (double x : Uniform(1000, -1, 1, 7)) unit.push_back(x);
  CheckUnary({"chlo.asin", [](LD x) { return std::asin(x); }, 2, 2, unit, 1.5});
  CheckUnary({"chlo.acos", [](LD x) { return std::acos(x); }, 2, 2, unit, 1.5});
  CheckUnary({"chlo.atan", [](LD x) { return std::atan(x); }, 2, 2, {}});
  CheckUnary({"chlo.asinh", [](LD x) { return std::asinh(x); }, 3, 3, {}, 10, 1e300});
  std::vector<double> above1 = Uniform(1000, 1, 3, 8);
  for (int k = 1; k <= 52; ++k) above1.push_back(1 + std::ldexp(1.0, -k));
  CheckUnary({"chlo.acosh", [](LD x) { return std::acosh(x); }, 3, 3, above1, 10, 1e300});
  CheckUnary({"chlo.atanh", [](LD x) { return std::atanh(x); }, 3, 3, unit, 1.5});
  // sinh and cosh are CHLO's decomposition (as JAX/XLA lower them): for |x| >= 1 they are
  // exp(x + log(1/2)) -+ exp(log(1/2) - x) with the arguments rounded to the element type, so
  // the reference is that expression with exact exponentials (the true sinh/cosh differ from it
  // by up to |x| 2^-p relative, as JAX's results do).
  CheckUnary({"chlo.sinh", nullptr, 3, 3, Uniform(500, -800, 800, 9), 10, 1e30, 0,
              [](LD x, bool f64) { return std::fabs(x) < 1 ? std::sinh(x) : ChloHalfExps(x, f64, -1); }});
  CheckUnary({"chlo.cosh", nullptr, 3, 3, Uniform(500, -800, 800, 10), 10, 1e30, 0,
              [](LD x, bool f64) { return ChloHalfExps(x, f64, 1); }});
  CheckUnary({"chlo.tan", [](LD x) { return std::tan(x); }, 2, 2, {}});
}

// --- binary special functions ---

TEST(ChloDecomposeAccuracy, ZetaAndPolygamma) {
  for (bool f64 : {false, true}) {
    SCOPED_TRACE(f64 ? "f64" : "f32");
    const ElementType type = f64 ? ElementType::kF64 : ElementType::kF32;
    std::vector<double> xs = RoundTo(Uniform(1000, 1.05, 30, 11), f64), qs = RoundTo(Uniform(1000, 0.05, 50, 12), f64);
    auto zeta = RunChlo("chlo.zeta", {Floats(type, xs), Floats(type, qs)}, {Floats(type, xs).type()});
    ASSERT_TRUE(zeta.ok()) << zeta.status().message();
    double worst = 0;
    for (size_t i = 0; i < xs.size(); ++i) {
      worst = std::max(worst, UlpError((*zeta)[0].GetFloat(static_cast<int64_t>(i)), ZetaRef(xs[i], qs[i]), f64));
    }
    std::printf("chlo.zeta          %s: max error %.2f ulp\n", f64 ? "f64" : "f32", worst);
    EXPECT_LE(worst, 12);

    // Domain: NaN below x = 1, +inf at x = 1, poles at integer q <= 0.
    auto edges = RunChlo("chlo.zeta", {Floats(type, {0.5, 1, 2, 3, 2.5}), Floats(type, {1, 1, -2, -2, -1.5})},
                         {Floats(type, {0, 0, 0, 0, 0}).type()});
    ASSERT_TRUE(edges.ok()) << edges.status().message();
    EXPECT_TRUE(std::isnan((*edges)[0].GetFloat(0)));
    EXPECT_EQ((*edges)[0].GetFloat(1), kInf);
    EXPECT_EQ((*edges)[0].GetFloat(2), kInf);
    EXPECT_TRUE(std::isnan((*edges)[0].GetFloat(3)));
    EXPECT_TRUE(std::isnan((*edges)[0].GetFloat(4)));

    std::vector<double> ns, ps;
    for (double x : Uniform(600, 0.1, 20, 13)) {
      ns.push_back(static_cast<double>(ns.size() % 6));
      ps.push_back(x);
    }
    ps = RoundTo(ps, f64);
    auto poly = RunChlo("chlo.polygamma", {Floats(type, ns), Floats(type, ps)}, {Floats(type, ns).type()});
    ASSERT_TRUE(poly.ok()) << poly.status().message();
    worst = 0;
    for (size_t i = 0; i < ns.size(); ++i) {
      // n = 0 is digamma, which has a zero at 1.46...: ulps at max(|ref|, 1) there.
      worst = std::max(worst, UlpError((*poly)[0].GetFloat(static_cast<int64_t>(i)), PolygammaRef(ns[i], ps[i]), f64,
                                       ns[i] == 0 ? 1 : 0));
    }
    // n! (through exp(lgamma)) times zeta: their errors add.
    std::printf("chlo.polygamma     %s: max error %.2f ulp\n", f64 ? "f64" : "f32", worst);
    EXPECT_LE(worst, f64 ? 20 : 32);
    auto bad = RunChlo("chlo.polygamma", {Floats(type, {-1, 1.5}), Floats(type, {2, 2})}, {Floats(type, {0, 0}).type()});
    ASSERT_TRUE(bad.ok()) << bad.status().message();
    EXPECT_TRUE(std::isnan((*bad)[0].GetFloat(0)));
    EXPECT_TRUE(std::isnan((*bad)[0].GetFloat(1)));
  }
}

// --- complex functions ---

void CheckComplex(const char* op, const std::function<CLD(CLD)>& reference, double bound_c64, double bound_c128) {
  for (bool f64 : {false, true}) {
    SCOPED_TRACE(std::string(op) + (f64 ? " c128" : " c64"));
    const std::vector<double> parts = {0.0, -0.0, 1e-30, -1e-30, 1e-5, -1e-5, 0.5, -0.5, 0.999, 1.0, -1.0,
                                       1.001, 2.0, -2.0, 7.5, -30.0, 1e5, -1e5, 1e15, -1e15};
    std::vector<std::complex<double>> zs;
    for (double re : parts) {
      for (double im : parts) zs.emplace_back(re, im);
    }
    std::mt19937_64 rng(14);
    std::uniform_real_distribution<double> unit(-4, 4);
    for (int i = 0; i < 2000; ++i) zs.emplace_back(unit(rng), unit(rng));
    for (auto& z : zs) {
      if (!f64) z = {static_cast<float>(z.real()), static_cast<float>(z.imag())};
    }
    const ElementType type = f64 ? ElementType::kC128 : ElementType::kC64;
    Literal input = Complexes(type, zs);
    auto out = RunChlo(op, {input}, {input.type()});
    ASSERT_TRUE(out.ok()) << out.status().message();
    double worst = 0;
    std::complex<double> worst_z;
    for (size_t i = 0; i < zs.size(); ++i) {
      const std::complex<double> got = (*out)[0].GetComplex(static_cast<int64_t>(i));
      const CLD ref = reference(CLD(zs[i].real(), zs[i].imag()));
      // Each part in ulps at max(|part|, |result| * 2^-20): a part far below the modulus is
      // not held to its own ulp.
      const LD floor = std::abs(ref) * std::ldexp(1.0L, -20);
      const double err = std::max(UlpError(got.real(), ref.real(), f64, floor), UlpError(got.imag(), ref.imag(), f64, floor));
      if (err > worst) {
        worst = err;
        worst_z = zs[i];
      }
    }
    std::printf("%-18s %s: max error %.2f ulp (at %.17g%+.17gi)\n", op, f64 ? "c128" : "c64", worst, worst_z.real(),
                worst_z.imag());
    EXPECT_LE(worst, f64 ? bound_c128 : bound_c64);
  }
}

TEST(ChloDecomposeAccuracy, ComplexFunctions) {
  CheckComplex("chlo.asin", [](CLD z) { return std::asin(z); }, 4, 4);
  CheckComplex("chlo.acos", [](CLD z) { return std::acos(z); }, 4, 4);
  CheckComplex("chlo.asinh", [](CLD z) { return std::asinh(z); }, 4, 4);
  CheckComplex("chlo.acosh", [](CLD z) { return std::acosh(z); }, 4, 4);
  CheckComplex("chlo.atan", [](CLD z) { return std::atan(z); }, 4, 4);
  CheckComplex("chlo.atanh", [](CLD z) { return std::atanh(z); }, 4, 4);
  CheckComplex("chlo.sinh", [](CLD z) { return std::sinh(z); }, 4, 4);
  CheckComplex("chlo.cosh", [](CLD z) { return std::cosh(z); }, 4, 4);
}

// --- exact ops ---

TEST(ChloDecompose, NextAfterStepsOneUlp) {
  for (bool f64 : {false, true}) {
    const ElementType type = f64 ? ElementType::kF64 : ElementType::kF32;
    const std::vector<double> from = {0.0, -0.0, 0.0, 1.0, 1.0, -1.0, kInf, 1.0, kNaN, 2.0, -0.0, 5e-324};
    const std::vector<double> to = {1.0, -1.0, -0.0, 2.0, 0.0, -kInf, 0.0, 1.0, 1.0, kNaN, 0.0, 0.0};
    const std::vector<double> f = RoundTo(from, f64), t = RoundTo(to, f64);
    auto out = RunChlo("chlo.next_after", {Floats(type, f), Floats(type, t)}, {Floats(type, f).type()});
    ASSERT_TRUE(out.ok()) << out.status().message();
    for (size_t i = 0; i < f.size(); ++i) {
      const double got = (*out)[0].GetFloat(static_cast<int64_t>(i));
      const double want = f64 ? std::nextafter(f[i], t[i])
                              : static_cast<double>(std::nextafter(static_cast<float>(f[i]), static_cast<float>(t[i])));
      if (std::isnan(want)) {
        EXPECT_TRUE(std::isnan(got)) << i;
      } else {
        EXPECT_EQ(got, want) << i;
        EXPECT_EQ(std::signbit(got), std::signbit(want)) << i;
      }
    }
  }
}

TEST(ChloDecompose, MulhiIsTheHighHalf) {
  std::mt19937_64 rng(15);
  for (ElementType type : {ElementType::kS64, ElementType::kU64, ElementType::kS32, ElementType::kU32, ElementType::kS8}) {
    std::vector<int64_t> a = {0, -1, 1, INT64_MIN, INT64_MAX, -7}, b = {5, -1, INT64_MIN, INT64_MIN, INT64_MAX, 3};
    for (int i = 0; i < 200; ++i) {
      a.push_back(static_cast<int64_t>(rng()));
      b.push_back(static_cast<int64_t>(rng()));
    }
    Literal la = *Literal::Create(Type::Tensor(type, {static_cast<int64_t>(a.size())})), lb = la;
    for (size_t i = 0; i < a.size(); ++i) {
      la.SetInt(static_cast<int64_t>(i), a[i]);
      lb.SetInt(static_cast<int64_t>(i), b[i]);
    }
    auto out = RunChlo("chlo.mulhi", {la, lb}, {la.type()});
    ASSERT_TRUE(out.ok()) << out.status().message();
    const int width = ir::BitWidth(type);
    for (size_t i = 0; i < a.size(); ++i) {
      const int64_t x = la.GetInt(static_cast<int64_t>(i)), y = lb.GetInt(static_cast<int64_t>(i));
      uint64_t want;
      if (ir::IsSignedInteger(type)) {
        want = static_cast<uint64_t>(static_cast<__int128>(x) * static_cast<__int128>(y) >> width);
      } else {
        want = static_cast<uint64_t>(static_cast<unsigned __int128>(static_cast<uint64_t>(x)) * static_cast<uint64_t>(y) >> width);
      }
      Literal expected = *Literal::Create(Type::Scalar(type));
      expected.SetInt(0, static_cast<int64_t>(want));
      EXPECT_EQ((*out)[0].GetInt(static_cast<int64_t>(i)), expected.GetInt(0)) << ir::ElementTypeName(type) << " " << x << " " << y;
    }
  }
}

TEST(ChloDecompose, TopKSortsDescendingWithStableTies) {
  Literal x = Floats(ElementType::kF32, {3, kNaN, -0.0, 0.0, 3, -kInf});
  auto out = RunChlo("chlo.top_k", {x}, {Type::Tensor(ElementType::kF32, {4}), Type::Tensor(ElementType::kS32, {4})},
                     "{k = 4 : i64}");
  ASSERT_TRUE(out.ok()) << out.status().message();
  EXPECT_TRUE(std::isnan((*out)[0].GetFloat(0)));
  EXPECT_EQ((*out)[0].GetFloat(1), 3);
  EXPECT_EQ((*out)[0].GetFloat(2), 3);
  EXPECT_EQ((*out)[0].GetFloat(3), 0);
  EXPECT_FALSE(std::signbit((*out)[0].GetFloat(3)));
  EXPECT_EQ((*out)[1].GetInt(0), 1);
  EXPECT_EQ((*out)[1].GetInt(1), 0);
  EXPECT_EQ((*out)[1].GetInt(2), 4);
  EXPECT_EQ((*out)[1].GetInt(3), 3);
}

// Booleans (JAX's top_k of a bool array): true before false, ties in index order.
TEST(ChloDecompose, TopKOfBooleans) {
  Literal x = *Literal::Create(Type::Tensor(ElementType::kI1, {5}));
  const int64_t bits[] = {0, 1, 0, 1, 1};
  for (int64_t i = 0; i < 5; ++i) x.SetInt(i, bits[i]);
  auto out = RunChlo("chlo.top_k", {x}, {Type::Tensor(ElementType::kI1, {4}), Type::Tensor(ElementType::kS32, {4})},
                     "{k = 4 : i64}");
  ASSERT_TRUE(out.ok()) << out.status().message();
  const int64_t values[] = {1, 1, 1, 0}, indices[] = {1, 3, 4, 0};
  for (int64_t i = 0; i < 4; ++i) {
    EXPECT_EQ((*out)[0].GetInt(i), values[i]) << i;
    EXPECT_EQ((*out)[1].GetInt(i), indices[i]) << i;
  }
}

TEST(ChloDecompose, NarrowFloatsComputeInF32) {
  // bf16 erf and lgamma: the f32 result rounded once.
  // Values exact in bf16, so the f32 run sees the same inputs.
  const std::vector<double> xs = {0.125, 0.5, 1.5, -2.25, 3.0, 10.0, -0.3125};
  for (const char* op : {"chlo.erf", "chlo.lgamma"}) {
    Literal x = Floats(ElementType::kBF16, xs);
    auto narrow = RunChlo(op, {x}, {x.type()});
    auto wide = RunChlo(op, {Floats(ElementType::kF32, xs)}, {Floats(ElementType::kF32, xs).type()});
    ASSERT_TRUE(narrow.ok() && wide.ok());
    for (size_t i = 0; i < xs.size(); ++i) {
      Literal rounded = Floats(ElementType::kBF16, {(*wide)[0].GetFloat(static_cast<int64_t>(i))});
      EXPECT_EQ((*narrow)[0].GetFloat(static_cast<int64_t>(i)), rounded.GetFloat(0)) << op << " " << xs[i];
    }
  }
}

std::string RaggedDims(const std::string& lb, const std::string& rb, const std::string& lc, const std::string& rc,
                       const std::string& lr, const std::string& rg) {
  return "{ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_batching_dimensions = [" + lb +
         "], rhs_batching_dimensions = [" + rb + "], lhs_contracting_dimensions = [" + lc +
         "], rhs_contracting_dimensions = [" + rc + "], lhs_ragged_dimensions = [" + lr + "], rhs_group_dimensions = [" +
         rg + "]>}";
}

Literal Shaped(ElementType type, std::vector<int64_t> dims, const std::vector<double>& values) {
  Literal l = *Literal::Create(Type::Tensor(type, dims));
  for (size_t i = 0; i < values.size(); ++i) l.SetFloat(static_cast<int64_t>(i), values[i]);
  return l;
}

TEST(ChloDecompose, RaggedDotModes) {
  const ElementType f32 = ElementType::kF32;
  Literal sizes = *Literal::Create(Type::Tensor(ElementType::kS32, {2}));
  // Non-contracting: rows 0 in group 0, rows 1-2 in group 1, row 3 in none (zeros).
  sizes.SetInt(0, 1);
  sizes.SetInt(1, 2);
  auto m1 = RunChlo("chlo.ragged_dot",
                    {Shaped(f32, {4, 2}, {1, 2, 3, 4, 5, 6, 7, 8}), Shaped(f32, {2, 2, 1}, {1, 10, 100, 1000}), sizes},
                    {Type::Tensor(f32, {4, 1})}, RaggedDims("", "", "1", "1", "0", "0"));
  ASSERT_TRUE(m1.ok()) << m1.status().message();
  EXPECT_EQ((*m1)[0].GetFloat(0), 21);
  EXPECT_EQ((*m1)[0].GetFloat(1), 4300);
  EXPECT_EQ((*m1)[0].GetFloat(2), 6500);
  EXPECT_EQ((*m1)[0].GetFloat(3), 0);
  // Contracting: k = 0 in group 0, k = 1..2 in group 1; result [groups, m, n].
  auto m2 = RunChlo("chlo.ragged_dot",
                    {Shaped(f32, {1, 3}, {1, 2, 3}), Shaped(f32, {3, 1}, {10, 100, 1000}), sizes},
                    {Type::Tensor(f32, {2, 1, 1})}, RaggedDims("", "", "1", "0", "1", ""));
  ASSERT_TRUE(m2.ok()) << m2.status().message();
  EXPECT_EQ((*m2)[0].GetFloat(0), 10);
  EXPECT_EQ((*m2)[0].GetFloat(1), 3200);
  // Batch: batches 0..2 covered by the groups, batch 3 past them is zero.
  auto m3 = RunChlo("chlo.ragged_dot",
                    {Shaped(f32, {4, 1, 1}, {1, 2, 3, 4}), Shaped(f32, {4, 1, 1}, {5, 6, 7, 8}), sizes},
                    {Type::Tensor(f32, {4, 1, 1})}, RaggedDims("0", "0", "2", "1", "0", ""));
  ASSERT_TRUE(m3.ok()) << m3.status().message();
  EXPECT_EQ((*m3)[0].GetFloat(0), 5);
  EXPECT_EQ((*m3)[0].GetFloat(1), 12);
  EXPECT_EQ((*m3)[0].GetFloat(2), 21);
  EXPECT_EQ((*m3)[0].GetFloat(3), 0);
}

TEST(ChloDecompose, UnsupportedRaggedDotIsAnError) {
  Literal lhs = Floats(ElementType::kF32, {1, 2});
  Literal sizes = *Literal::Create(Type::Tensor(ElementType::kS64, {1, 1}));
  auto out = RunChlo("chlo.ragged_dot", {lhs, lhs, sizes}, {lhs.type()},
                     "{ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_batching_dimensions = [], "
                     "rhs_batching_dimensions = [], lhs_contracting_dimensions = [], rhs_contracting_dimensions = [], "
                     "lhs_ragged_dimensions = [0], rhs_group_dimensions = [0]>}");
  ASSERT_FALSE(out.ok());
  EXPECT_NE(out.status().message().find("chlo.ragged_dot"), std::string::npos) << out.status().message();
}

}  // namespace
}  // namespace vkhlo
