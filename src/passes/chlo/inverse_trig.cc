// asin, acos, atan, asinh, acosh, atanh for real and complex operands.
//
// Real: the atan2 forms (no loss near +-1): asin x = 2 atan2(x, 1 + sqrt((1-x)(1+x))),
// acos x = 2 atan2(sqrt((1-x)(1+x)), 1 + x) (pi at -1), atan x = atan2(x, 1);
// asinh x = sign(x) log1p(|x| + x^2 / (1 + sqrt(1 + x^2))), acosh x = log1p(sqrt(x-1)
// (sqrt(x+1) + sqrt(x-1))), both log(2) + log|x| beyond sqrt(max); atanh x =
// (log1p(x) - log1p(-x)) / 2 (NaN beyond +-1). f16/bf16/f8 compute in f32.
//
// Complex asin/acos (and through them asinh/acosh) follow Hull, Fairgrieve and Tang,
// "Implementing the complex arcsine and arccosine functions using exception handling" (1997):
// with x = |Re z|, y = |Im z|, r = |z + 1|, s = |z - 1| and A = (r + s)/2,
//   Re asin z = atan2(x, D), Re acos z = atan2(D, Re z), |Im| = log1p(A-1 + sqrt((A-1)(A+1))),
// where D = sqrt(A^2 - x^2) and A - 1 are computed without cancellation (each difference is
// rewritten as a quotient of positive terms), tiny y below 1 uses |Im| = y / sqrt(1 - x^2),
// and |z| beyond sqrt(max)/8 uses the asymptotic forms (D = y, |Im| = log 2|z|).
// Complex atanh: (log1p(4|x| / ((1-|x|)^2 + y^2)) / 4 with x's sign) + i atan2(2y,
// (1-x)(1+x) - y^2) / 2, with x / |z|^2 and +-pi/2 beyond sqrt(max)/4. atan(z) = -i atanh(iz),
// asinh(z) = -i asin(iz).
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
const double kLog2 = std::log(2.0);

bool IsComplexValue(const Value* x) { return ir::IsComplex(x->type().element_type()); }

// --- real ---

Value* AsinReal(const Math& m, Value* x) {
  Value* root = m.Sqrt(m.Mul(m.Sub(1.0, x), m.Add(1.0, x)));
  return m.Mul(2.0, m.Atan2(x, m.Add(1.0, root)));
}

Value* AcosReal(const Math& m, Value* x) {
  Value* root = m.Sqrt(m.Mul(m.Sub(1.0, x), m.Add(1.0, x)));
  return m.Select(m.Eq(x, -1.0), m.C(x, kPi), m.Mul(2.0, m.Atan2(root, m.Add(1.0, x))));
}

Value* AtanReal(const Math& m, Value* x) { return m.Atan2(x, m.C(x, 1.0)); }

Value* AsinhReal(const Math& m, Value* x) {
  Value* a = m.Abs(x);
  Value* a2 = m.Mul(a, a);
  Value* moderate = m.Log1p(m.Add(a, m.Div(a2, m.Add(1.0, m.Sqrt(m.Add(a2, 1.0))))));
  Value* large = m.Add(m.Log(a), kLog2);
  return m.Mul(m.Sign(x), m.Select(m.Ge(a, std::sqrt(MaxFinite(x))), large, moderate));
}

Value* AcoshReal(const Math& m, Value* x) {
  Value* root_m1 = m.Sqrt(m.Sub(x, 1.0));
  Value* moderate = m.Log1p(m.Mul(root_m1, m.Add(m.Sqrt(m.Add(x, 1.0)), root_m1)));
  Value* large = m.Add(m.Log(x), kLog2);
  return m.Select(m.Ge(x, std::sqrt(MaxFinite(x))), large, moderate);
}

Value* AtanhReal(const Math& m, Value* x) {
  Value* result = m.Mul(m.Sub(m.Log1p(x), m.Log1p(m.Neg(x))), 0.5);
  return m.Select(m.Gt(m.Abs(x), 1.0), m.C(x, kNaN), result);
}

// --- complex ---

struct AsinAcosParts {
  Value* x;          // |Re z|
  Value* d;          // sqrt(A^2 - x^2)
  Value* imag_abs;   // |Im asin z| = log(A + sqrt(A^2 - 1))
};

AsinAcosParts AsinAcosKernel(const Math& m, Value* re, Value* im) {
  Value* x = m.Abs(re);
  Value* y = m.Abs(im);
  const double safe_max = std::sqrt(MaxFinite(x)) / 8;
  const double safe_min = std::sqrt(SmallestNormal(x)) * 4;
  Value* xp1 = m.Add(x, 1.0);
  Value* xm1 = m.Sub(x, 1.0);
  Value* yy = m.Mul(y, y);
  Value* r = m.Hypot(xp1, y);
  Value* s = m.Hypot(xm1, y);  // y^2 may underflow where s is still ~y (x = 1)
  Value* a = m.Mul(m.Add(r, s), 0.5);
  Value* apx = m.Add(a, x);
  Value* rpxp1 = m.Add(r, xp1);
  Value* spxm1 = m.Add(s, xm1);  // s + (x - 1): positive terms when x >= 1
  Value* smxm1 = m.Sub(s, xm1);  // s + (1 - x): positive terms when x <= 1
  Value* yy_rpxp1 = m.Div(yy, rpxp1);
  Value* x_le_1 = m.Le(x, 1.0);
  // A - x = (y^2/(r+x+1) + s+1-x)/2 for x <= 1, y^2 (1/(r+x+1) + 1/(s+x-1))/2 above.
  Value* d = m.Select(x_le_1, m.Sqrt(m.Mul(m.Mul(apx, 0.5), m.Add(yy_rpxp1, smxm1))),
                      m.Mul(y, m.Sqrt(m.Mul(0.5, m.Add(m.Div(apx, rpxp1), m.Div(apx, spxm1))))));
  // A - 1 = (y^2/(r+x+1) + y^2/(s+1-x))/2 for x < 1, (y^2/(r+x+1) + s+x-1)/2 above.
  Value* am1 = m.Select(m.Lt(x, 1.0), m.Mul(0.5, m.Add(yy_rpxp1, m.Div(yy, smxm1))),
                        m.Mul(0.5, m.Add(yy_rpxp1, spxm1)));
  Value* imag = m.Log1p(m.Add(am1, m.Sqrt(m.Mul(am1, m.Add(a, 1.0)))));
  // y^2 underflows: Im asin z = y / sqrt(1 - x^2) to first order.
  Value* tiny = m.And(m.Lt(y, safe_min), m.Lt(x, 1.0));
  imag = m.Select(tiny, m.Div(y, m.Sqrt(m.Mul(m.Sub(1.0, x), xp1))), imag);
  // |z| large: A ~ |z|, D ~ y, Im ~ log(2|z|) (computed as log(max) + log 2 + log1p(ratio^2)/2).
  Value* mx = m.Max(x, y);
  Value* mn = m.Min(x, y);
  Value* ratio = m.Select(m.Eq(mx, mn), m.C(x, 1.0), m.Div(mn, mx));
  Value* large = m.Ge(mx, safe_max);
  Value* imag_large = m.Add(m.Add(m.Log(mx), kLog2), m.Mul(0.5, m.Log1p(m.Mul(ratio, ratio))));
  return {x, m.Select(large, y, d), m.Select(large, imag_large, imag)};
}

Value* AsinComplex(const Math& m, Value* z) {
  Value* re = m.Real(z);
  Value* im = m.Imag(z);
  AsinAcosParts k = AsinAcosKernel(m, re, im);
  return m.Complex(m.CopySign(m.Atan2(k.x, k.d), re), m.CopySign(k.imag_abs, im));
}

Value* AcosComplex(const Math& m, Value* z) {
  Value* re = m.Real(z);
  Value* im = m.Imag(z);
  AsinAcosParts k = AsinAcosKernel(m, re, im);
  return m.Complex(m.Atan2(k.d, re), m.CopySign(k.imag_abs, m.Neg(im)));
}

Value* AsinhComplex(const Math& m, Value* z) {
  Value* re = m.Real(z);
  Value* im = m.Imag(z);
  AsinAcosParts k = AsinAcosKernel(m, im, re);  // asin(i z) with i z = -Im z + i Re z
  return m.Complex(m.CopySign(k.imag_abs, re), m.CopySign(m.Atan2(k.x, k.d), im));
}

Value* AcoshComplex(const Math& m, Value* z) {
  Value* re = m.Real(z);
  Value* im = m.Imag(z);
  AsinAcosParts k = AsinAcosKernel(m, re, im);
  return m.Complex(k.imag_abs, m.CopySign(m.Atan2(k.d, re), im));
}

// atanh(x + iy) as (real, imag) parts.
std::pair<Value*, Value*> AtanhParts(const Math& m, Value* x, Value* y) {
  Value* ax = m.Abs(x);
  Value* ay = m.Abs(y);
  Value* one_minus = m.Sub(1.0, ax);
  Value* denom = m.Add(m.Mul(one_minus, one_minus), m.Mul(y, y));
  // Where the denominator underflows (z next to +-1), the same as log(|1+z| / |1-z|) / 2 with
  // robust moduli; there the log is large, so the difference does not cancel.
  Value* near_pole = m.Mul(0.5, m.Sub(m.Log(m.Hypot(m.Add(1.0, ax), y)), m.Log(m.Hypot(one_minus, y))));
  Value* re_abs = m.Select(m.Lt(denom, 4 * SmallestNormal(x) / Epsilon(x)), near_pole,
                           m.Mul(0.25, m.Log1p(m.Div(m.Mul(4.0, ax), denom))));
  Value* re = m.CopySign(re_abs, x);
  Value* im = m.Mul(0.5, m.Atan2(m.Mul(2.0, y), m.Sub(m.Mul(m.Sub(1.0, x), m.Add(1.0, x)), m.Mul(y, y))));
  // |z| large: Re = x / |z|^2 (scaled by the larger part), Im = +-pi/2.
  Value* mx = m.Max(ax, ay);
  Value* mn = m.Min(ax, ay);
  Value* ratio = m.Select(m.Eq(mx, mn), m.C(x, 1.0), m.Div(mn, mx));
  Value* re_large = m.Div(m.Div(x, mx), m.Mul(mx, m.Add(1.0, m.Mul(ratio, ratio))));
  Value* im_large = m.CopySign(m.C(y, kPi / 2), y);
  Value* large = m.Ge(mx, std::sqrt(MaxFinite(x)) / 4);
  return {m.Select(large, re_large, re), m.Select(large, im_large, im)};
}

Value* AtanhComplex(const Math& m, Value* z) {
  auto [re, im] = AtanhParts(m, m.Real(z), m.Imag(z));
  return m.Complex(re, im);
}

Value* AtanComplex(const Math& m, Value* z) {
  // atan z = -i atanh(i z), i z = -Im z + i Re z.
  auto [p, q] = AtanhParts(m, m.Neg(m.Imag(z)), m.Real(z));
  return m.Complex(q, m.Neg(p));
}

template <Value* (*kReal)(const Math&, Value*), Value* (*kComplex)(const Math&, Value*)>
Values Unary(OpBuilder& b, const Operation& op) {
  Math m(b);
  Value* x = op.operand(0);
  if (IsComplexValue(x)) return std::vector<Value*>{kComplex(m, x)};
  return std::vector<Value*>{WithF32Upcast(b, {x}, [&](std::vector<Value*> a) { return kReal(m, a[0]); })};
}

}  // namespace

void AddInverseTrigRewrites(RewriteTable& t) {
  t[OpCode::kChloAsin] = Unary<AsinReal, AsinComplex>;
  t[OpCode::kChloAcos] = Unary<AcosReal, AcosComplex>;
  t[OpCode::kChloAtan] = Unary<AtanReal, AtanComplex>;
  t[OpCode::kChloAsinh] = Unary<AsinhReal, AsinhComplex>;
  t[OpCode::kChloAcosh] = Unary<AcoshReal, AcoshComplex>;
  t[OpCode::kChloAtanh] = Unary<AtanhReal, AtanhComplex>;
}

}  // namespace vkhlo::passes::chlo
