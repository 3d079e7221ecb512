// sinh and cosh, real and complex.
//
// Real: CHLO's own decomposition, as JAX and XLA lower chlo.sinh/cosh (so results agree with
// theirs to within the accuracy of exp and expm1, ~1 ULP each):
//   sinh x = (e + e / (e + 1)) / 2 with e = expm1(x)          for |x| < 1
//          = exp(x + log(1/2)) - exp(log(1/2) - x)             otherwise
//   cosh x = exp(x + log(1/2)) + exp(log(1/2) - x)
// log(1/2) is rounded to the element type first, so for large |x| the argument x + log(1/2)
// rounds: the result then differs from the true sinh/cosh by up to |x| * 2^-p relative (about
// 24 ULP in f32 near the overflow threshold), exactly as JAX's does; no cancellation or early
// overflow. f16/bf16/f8 compute in f32.
// Complex: sinh(x+iy) = sinh x cos y + i cosh x sin y, cosh(x+iy) = cosh x cos y +
// i sinh x sin y, with an exact (signed) zero imaginary part on the real axis, and the true
// sinh x, cosh x (within 3 ULP; no rounded argument).
#include <cmath>

#include "passes/chlo/rewrites.h"

namespace vkhlo::passes::chlo {
namespace {

using ir::OpCode;
using ir::Operation;
using Values = StatusOr<std::vector<Value*>>;

// exp(x + log(1/2)) and exp(log(1/2) - x).
std::pair<Value*, Value*> HalfExps(const Math& m, Value* x) {
  const double log_half = std::log(0.5);
  return {m.Exp(m.Add(x, log_half)), m.Exp(m.Sub(log_half, x))};
}

Value* SinhReal(const Math& m, Value* x) {
  Value* e = m.Expm1(x);
  Value* small = m.Mul(m.Add(e, m.Div(e, m.Add(e, 1.0))), 0.5);
  auto [up, down] = HalfExps(m, x);
  return m.Select(m.Lt(m.Abs(x), 1.0), small, m.Sub(up, down));
}

Value* CoshReal(const Math& m, Value* x) {
  auto [up, down] = HalfExps(m, x);
  return m.Add(up, down);
}

// The true sinh/cosh of a real part, for the complex functions: expm1 below 1
// ((e + e/(e+1))/2 with e = expm1(|x|), no cancellation), (exp(a) - exp(-a))/2 up to
// log(max) - 2, and h * (h/2) with h = exp(a/2) beyond, where exp(a) alone would overflow
// though the result does not.
Value* HalfExpLarge(const Math& m, Value* a) {
  Value* h = m.Exp(m.Mul(a, 0.5));
  return m.Mul(m.Mul(h, 0.5), h);
}

Value* SinhOfRealPart(const Math& m, Value* x) {
  Value* a = m.Abs(x);
  Value* e = m.Expm1(a);
  Value* small = m.Add(m.Mul(0.5, e), m.Div(m.Mul(0.5, e), m.Add(e, 1.0)));
  Value* medium = m.Mul(0.5, m.Sub(m.Exp(a), m.Exp(m.Neg(a))));
  const double threshold = std::log(MaxFinite(x)) - 2;
  Value* result = m.Select(m.Lt(a, 1.0), small, m.Select(m.Lt(a, threshold), medium, HalfExpLarge(m, a)));
  return m.CopySign(result, x);
}

Value* CoshOfRealPart(const Math& m, Value* x) {
  Value* a = m.Abs(x);
  Value* medium = m.Mul(0.5, m.Add(m.Exp(a), m.Exp(m.Neg(a))));
  const double threshold = std::log(MaxFinite(x)) - 2;
  return m.Select(m.Lt(a, threshold), medium, HalfExpLarge(m, a));
}

Value* SinhComplex(const Math& m, Value* z) {
  Value* x = m.Real(z);
  Value* y = m.Imag(z);
  Value* re = m.Mul(SinhOfRealPart(m, x), m.Cos(y));
  Value* im = m.Select(m.Eq(y, 0.0), y, m.Mul(CoshOfRealPart(m, x), m.Sin(y)));
  return m.Complex(re, im);
}

Value* CoshComplex(const Math& m, Value* z) {
  Value* x = m.Real(z);
  Value* y = m.Imag(z);
  Value* sinh_x = SinhOfRealPart(m, x);
  Value* re = m.Mul(CoshOfRealPart(m, x), m.Cos(y));
  Value* im = m.Select(m.Eq(y, 0.0), m.Mul(y, m.Sign(x)), m.Mul(sinh_x, m.Sin(y)));
  return m.Complex(re, im);
}

template <Value* (*kReal)(const Math&, Value*), Value* (*kComplex)(const Math&, Value*)>
Values Unary(OpBuilder& b, const Operation& op) {
  Math m(b);
  Value* x = op.operand(0);
  if (ir::IsComplex(x->type().element_type())) return std::vector<Value*>{kComplex(m, x)};
  return std::vector<Value*>{WithF32Upcast(b, {x}, [&](std::vector<Value*> a) { return kReal(m, a[0]); })};
}

}  // namespace

void AddHyperbolicRewrites(RewriteTable& t) {
  t[OpCode::kChloSinh] = Unary<SinhReal, SinhComplex>;
  t[OpCode::kChloCosh] = Unary<CoshReal, CoshComplex>;
}

}  // namespace vkhlo::passes::chlo
