// lgamma, digamma, zeta and polygamma, as XLA (xla/hlo/builder/lib/math.cc) and StableHLO's
// chlo legalization build them:
// - lgamma and digamma: the Lanczos approximation with g = 7 and 9 coefficients, Euler's
//   reflection below 1/2 (with the argument of sin/cos reduced to [-1/2, 1/2] so integers hit
//   the poles exactly); digamma is NaN at its poles, lgamma(+-inf) = +inf, and lgamma(x) =
//   -log|x| for |x| below epsilon.
// - zeta (Hurwitz): ten terms of the series, then a 12-term Euler-Maclaurin correction (in
//   Horner form); the domain rules of Cephes (NaN below x = 1, poles at integer q <= 0).
// - polygamma(n, x) = (-1)^(n+1) n! zeta(n + 1, x), digamma for n = 0, NaN unless n is a
//   natural number.
// f16/bf16/f8 compute in f32.
#include <cmath>
#include <limits>

#include "passes/chlo/rewrites.h"

namespace vkhlo::passes::chlo {
namespace {

using ir::OpCode;
using ir::Operation;
using Values = StatusOr<std::vector<Value*>>;

constexpr double kPi = 3.14159265358979323846264338327950288;
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

constexpr double kLanczosGamma = 7;  // g
constexpr double kBaseLanczosCoeff = 0.99999999999980993227684700473478;
constexpr double kLanczosCoefficients[] = {676.520368121885098567009190444019, -1259.13921672240287047156078755283,
                                           771.3234287776530788486528258894,   -176.61502916214059906584551354,
                                           12.507343278686904814458936853,     -0.13857109526572011689554707,
                                           9.984369578019570859563e-6,         1.50563273514931155834e-7};

Value* Lgamma(const Math& m, Value* input) {
  const double log_pi = std::log(kPi);
  const double log_sqrt_two_pi = (std::log(2.0) + std::log(kPi)) / 2;
  const double lanczos_gamma_plus_one_half = kLanczosGamma + 0.5;
  const double log_lanczos_gamma_plus_one_half = std::log(lanczos_gamma_plus_one_half);

  // Below 1/2: gamma(x) = pi / (sin(pi x) gamma(1 - x)).
  Value* need_to_reflect = m.Lt(input, 0.5);
  Value* z = m.Select(need_to_reflect, m.Neg(input), m.Sub(input, 1.0));
  Value* x = m.C(input, kBaseLanczosCoeff);
  for (size_t i = 0; i < std::size(kLanczosCoefficients); ++i) {
    x = m.Add(x, m.Div(m.C(input, kLanczosCoefficients[i]), m.Add(z, static_cast<double>(i + 1))));
  }
  // log(t) = log(g + 0.5 + z) = log(g + 0.5) + log1p(z / (g + 0.5)): precise even where log
  // is not.
  Value* t = m.Add(lanczos_gamma_plus_one_half, z);
  Value* log_t = m.Add(log_lanczos_gamma_plus_one_half, m.Log1p(m.Div(z, lanczos_gamma_plus_one_half)));
  // (z + 1/2) log(t) - t without overflowing: (z + 1/2 - t / log(t)) log(t).
  Value* log_y = m.Add(m.Add(log_sqrt_two_pi, m.Mul(m.Sub(m.Add(z, 0.5), m.Div(t, log_t)), log_t)), m.Log(x));

  // lgamma(x) = log(pi) - lgamma(1 - x) - log|sin(pi x)|, with |sin(pi x)| = |sin(pi frac|x|)|
  // and frac folded into [0, 1/2] (exact zeros at integers, no loss near 1).
  Value* abs_input = m.Abs(input);
  Value* abs_frac = m.Sub(abs_input, m.Floor(abs_input));
  Value* reduced_frac = m.Select(m.Gt(abs_frac, 0.5), m.Sub(1.0, abs_frac), abs_frac);
  Value* reflection_denom = m.Log(m.Sin(m.Mul(kPi, reduced_frac)));
  // An infinite denominator (a pole) wins: the result is +inf, never inf - inf.
  Value* reflection = m.Select(m.IsFinite(reflection_denom), m.Sub(m.Sub(log_pi, reflection_denom), log_y),
                               m.Neg(reflection_denom));
  Value* result = m.Select(need_to_reflect, reflection, log_y);
  // |x| < eps: lgamma(x) = -log|x| - gamma x + O(x^2), and the gamma x term is below half an
  // ulp; the reflection would instead take sin(pi x) of a subnormal. (Not in XLA.)
  result = m.Select(m.Lt(abs_input, Epsilon(input)), m.Neg(m.Log(abs_input)), result);
  return m.Select(m.IsInf(input), m.C(input, kInf), result);
}

Value* Digamma(const Math& m, Value* input) {
  const double lanczos_gamma_plus_one_half = kLanczosGamma + 0.5;
  const double log_lanczos_gamma_plus_one_half = std::log(lanczos_gamma_plus_one_half);

  // Below 1/2: digamma(x) = digamma(1 - x) - pi cot(pi x).
  Value* need_to_reflect = m.Lt(input, 0.5);
  Value* z = m.Select(need_to_reflect, m.Neg(input), m.Sub(input, 1.0));
  Value* num = m.C(input, 0);
  Value* denom = m.C(input, kBaseLanczosCoeff);
  for (size_t i = 0; i < std::size(kLanczosCoefficients); ++i) {
    Value* coefficient = m.C(input, kLanczosCoefficients[i]);
    Value* zi = m.Add(z, static_cast<double>(i + 1));
    num = m.Sub(num, m.Div(coefficient, m.Mul(zi, zi)));
    denom = m.Add(denom, m.Div(coefficient, zi));
  }
  Value* t = m.Add(lanczos_gamma_plus_one_half, z);
  Value* log_t = m.Add(log_lanczos_gamma_plus_one_half, m.Log1p(m.Div(z, lanczos_gamma_plus_one_half)));
  Value* y = m.Sub(m.Add(log_t, m.Div(num, denom)), m.Div(kLanczosGamma, t));

  // cot(pi x) on x shifted into [-1/2, 1/2] (x < 1/2 here), where pi x keeps its digits.
  Value* reduced = m.Add(input, m.Abs(m.Floor(m.Add(input, 0.5))));
  Value* pi_reduced = m.Mul(kPi, reduced);
  Value* reflection = m.Sub(y, m.Div(m.Mul(kPi, m.Cos(pi_reduced)), m.Sin(pi_reduced)));
  Value* result = m.Select(need_to_reflect, reflection, y);
  // Poles at zero and the negative integers.
  Value* pole = m.And(m.Le(input, 0.0), m.Eq(input, m.Floor(input)));
  return m.Select(pole, m.C(input, kNaN), result);
}

// (2k)! / B_2k for the Euler-Maclaurin terms, highest order first.
constexpr double kZetaCoefficients[] = {-7.1661652561756670113e18,
                                        1.8152105401943546773e17,
                                        -4.5979787224074726105e15,
                                        1.1646782814350067249e14,
                                        -2.950130727918164224e12,
                                        7.47242496e10,
                                        -1.8924375803183791606e9,
                                        47900160.0,
                                        -1209600.0,
                                        30240.0,
                                        -720.0,
                                        12.0};

Value* Zeta(const Math& m, Value* x, Value* q) {
  Value* neg_x = m.Neg(x);
  Value* a = q;
  Value* initial_sum = m.Pow(q, neg_x);
  for (int i = 0; i < 9; ++i) {
    a = m.Add(a, 1.0);
    initial_sum = m.Add(initial_sum, m.Pow(a, neg_x));
  }
  a = m.Add(a, 1.0);
  Value* neg_power = m.Pow(a, neg_x);
  Value* s = m.Add(initial_sum, m.Div(m.Mul(neg_power, a), m.Sub(x, 1.0)));
  Value* a_inverse_square = m.Div(1.0, m.Mul(a, a));
  Value* horner_sum = m.C(x, 0);
  for (int i = 0; i < 11; ++i) {
    Value* factor = m.Mul(m.Add(x, 22.0 - 2.0 * i), m.Add(x, 21.0 - 2.0 * i));
    horner_sum = m.Mul(factor, m.Mul(a_inverse_square, m.Add(horner_sum, 1.0 / kZetaCoefficients[i])));
  }
  s = m.Add(s, m.Mul(neg_power, m.Add(0.5, m.Mul(m.Div(x, a), m.Add(horner_sum, 1.0 / kZetaCoefficients[11])))));
  // The series alone when the correction cannot change it.
  Value* output = m.Select(m.Lt(m.Abs(neg_power), m.Mul(m.Abs(initial_sum), Epsilon(x))), initial_sum, s);
  Value* nan = m.C(x, kNaN);
  Value* inf = m.C(x, kInf);
  output = m.Select(m.Lt(x, 1.0), nan, output);
  // For q <= 0, x must be an integer; integer q <= 0 are poles (+inf only for even x).
  Value* q_le_zero = m.Le(q, 0.0);
  Value* x_is_int = m.Eq(x, m.Floor(x));
  output = m.Select(m.And(q_le_zero, m.Not(x_is_int)), nan, output);
  Value* at_pole = m.And(q_le_zero, m.Eq(q, m.Floor(q)));
  Value* x_is_even_int = m.And(x_is_int, m.Eq(m.Rem(x, m.C(x, 2.0)), 0.0));
  output = m.Select(at_pole, m.Select(x_is_even_int, inf, nan), output);
  // x = 1: the harmonic series.
  return m.Select(m.Eq(x, 1.0), inf, output);
}

Value* Polygamma(const Math& m, Value* n, Value* x) {
  Value* n_plus_one = m.Add(n, 1.0);
  Value* sign = m.Sub(m.Mul(2.0, m.Rem(n, m.C(n, 2.0))), 1.0);
  Value* general = m.Mul(m.Mul(sign, m.Exp(Lgamma(m, n_plus_one))), Zeta(m, n_plus_one, x));
  Value* output = m.Select(m.Eq(n, 0.0), Digamma(m, x), general);
  return m.Select(m.Or(m.Ne(n, m.Floor(n)), m.Lt(n, 0.0)), m.C(n, kNaN), output);
}

template <Value* (*kFn)(const Math&, Value*)>
Values Unary(OpBuilder& b, const Operation& op) {
  Math m(b);
  return std::vector<Value*>{WithF32Upcast(b, {op.operand(0)}, [&](std::vector<Value*> a) { return kFn(m, a[0]); })};
}

template <Value* (*kFn)(const Math&, Value*, Value*)>
Values Binary(OpBuilder& b, const Operation& op) {
  Math m(b);
  return std::vector<Value*>{WithF32Upcast(b, {op.operand(0), op.operand(1)},
                                           [&](std::vector<Value*> a) { return kFn(m, a[0], a[1]); })};
}

}  // namespace

void AddGammaRewrites(RewriteTable& t) {
  t[OpCode::kChloLgamma] = Unary<Lgamma>;
  t[OpCode::kChloDigamma] = Unary<Digamma>;
  t[OpCode::kChloZeta] = Binary<Zeta>;
  t[OpCode::kChloPolygamma] = Binary<Polygamma>;
}

}  // namespace vkhlo::passes::chlo
