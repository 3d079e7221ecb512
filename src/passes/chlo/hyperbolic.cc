// sinh and cosh, real and complex.
//
// Real, on a = |x|: sinh uses expm1 below 1 ((e + e/(e+1))/2 with e = expm1(a), no
// cancellation), (exp(a) - exp(-a))/2 up to log(max) - 2, and h * (h/2) with h = exp(a/2)
// beyond, where exp(a) alone would overflow though the result does not; then x's sign.
// cosh is (exp(a) + exp(-a))/2 with the same overflow guard. f16/bf16/f8 compute in f32.
// Complex: sinh(x+iy) = sinh x cos y + i cosh x sin y, cosh(x+iy) = cosh x cos y +
// i sinh x sin y, with an exact (signed) zero imaginary part on the real axis.
#include <cmath>

#include "passes/chlo/rewrites.h"

namespace vkhlo::passes::chlo {
namespace {

using ir::OpCode;
using ir::Operation;
using Values = StatusOr<std::vector<Value*>>;

// exp(a)/2 for a beyond log(max) - 2, without overflowing early.
Value* HalfExpLarge(const Math& m, Value* a) {
  Value* h = m.Exp(m.Mul(a, 0.5));
  return m.Mul(m.Mul(h, 0.5), h);
}

Value* SinhReal(const Math& m, Value* x) {
  Value* a = m.Abs(x);
  Value* e = m.Expm1(a);
  Value* small = m.Add(m.Mul(0.5, e), m.Div(m.Mul(0.5, e), m.Add(e, 1.0)));
  Value* medium = m.Mul(0.5, m.Sub(m.Exp(a), m.Exp(m.Neg(a))));
  const double threshold = std::log(MaxFinite(x)) - 2;
  Value* result = m.Select(m.Lt(a, 1.0), small, m.Select(m.Lt(a, threshold), medium, HalfExpLarge(m, a)));
  return m.CopySign(result, x);
}

Value* CoshReal(const Math& m, Value* x) {
  Value* a = m.Abs(x);
  Value* medium = m.Mul(0.5, m.Add(m.Exp(a), m.Exp(m.Neg(a))));
  const double threshold = std::log(MaxFinite(x)) - 2;
  return m.Select(m.Lt(a, threshold), medium, HalfExpLarge(m, a));
}

Value* SinhComplex(const Math& m, Value* z) {
  Value* x = m.Real(z);
  Value* y = m.Imag(z);
  Value* re = m.Mul(SinhReal(m, x), m.Cos(y));
  Value* im = m.Select(m.Eq(y, 0.0), y, m.Mul(CoshReal(m, x), m.Sin(y)));
  return m.Complex(re, im);
}

Value* CoshComplex(const Math& m, Value* z) {
  Value* x = m.Real(z);
  Value* y = m.Imag(z);
  Value* sinh_x = SinhReal(m, x);
  Value* re = m.Mul(CoshReal(m, x), m.Cos(y));
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
