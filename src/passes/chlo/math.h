// Math: a thin layer over OpBuilder for writing the chlo decompositions as formulas.
//
// Every function builds StableHLO ops (through the sticky-error OpBuilder) and returns the
// value; overloads taking a double splat the constant in the other operand's type, so
//   m.Mul(m.Add(x, 1.0), y)
// reads as (x + 1) * y. Nothing is evaluated here: the result is IR.
#pragma once

#include <functional>
#include <initializer_list>
#include <span>
#include <vector>

#include "passes/op_builder.h"

namespace vkhlo::passes::chlo {

using ir::Value;

class Math {
 public:
  explicit Math(OpBuilder& builder) : b_(builder) {}
  OpBuilder& builder() const { return b_; }

  Value* C(Value* like, double value) const { return b_.ScalarLike(like, value); }

  Value* Add(Value* a, Value* c) const { return b_.Add(a, c); }
  Value* Add(Value* a, double c) const { return b_.Add(a, C(a, c)); }
  Value* Add(double a, Value* c) const { return b_.Add(C(c, a), c); }
  Value* Sub(Value* a, Value* c) const { return b_.Sub(a, c); }
  Value* Sub(Value* a, double c) const { return b_.Sub(a, C(a, c)); }
  Value* Sub(double a, Value* c) const { return b_.Sub(C(c, a), c); }
  Value* Mul(Value* a, Value* c) const { return b_.Mul(a, c); }
  Value* Mul(Value* a, double c) const { return b_.Mul(a, C(a, c)); }
  Value* Mul(double a, Value* c) const { return b_.Mul(C(c, a), c); }
  Value* Div(Value* a, Value* c) const { return b_.Div(a, c); }
  Value* Div(Value* a, double c) const { return b_.Div(a, C(a, c)); }
  Value* Div(double a, Value* c) const { return b_.Div(C(c, a), c); }
  Value* Max(Value* a, Value* c) const { return b_.Max(a, c); }
  Value* Min(Value* a, Value* c) const { return b_.Min(a, c); }
  Value* Neg(Value* x) const { return b_.Neg(x); }
  Value* Abs(Value* x) const { return b_.Abs(x); }
  Value* Select(Value* p, Value* t, Value* f) const { return b_.Select(p, t, f); }
  Value* And(Value* a, Value* c) const { return b_.And(a, c); }
  Value* Or(Value* a, Value* c) const { return b_.Or(a, c); }
  Value* Not(Value* a) const { return b_.Not(a); }

  Value* Unary(ir::OpCode code, Value* x) const { return b_.Unary(code, x); }
  Value* Exp(Value* x) const { return Unary(ir::OpCode::kExponential, x); }
  Value* Expm1(Value* x) const { return Unary(ir::OpCode::kExponentialMinusOne, x); }
  Value* Log(Value* x) const { return Unary(ir::OpCode::kLog, x); }
  Value* Log1p(Value* x) const { return Unary(ir::OpCode::kLogPlusOne, x); }
  Value* Sqrt(Value* x) const { return Unary(ir::OpCode::kSqrt, x); }
  Value* Sin(Value* x) const { return Unary(ir::OpCode::kSine, x); }
  Value* Cos(Value* x) const { return Unary(ir::OpCode::kCosine, x); }
  Value* Floor(Value* x) const { return Unary(ir::OpCode::kFloor, x); }
  Value* Sign(Value* x) const { return Unary(ir::OpCode::kSign, x); }
  Value* IsFinite(Value* x) const { return Unary(ir::OpCode::kIsFinite, x); }
  Value* Real(Value* z) const { return Unary(ir::OpCode::kReal, z); }
  Value* Imag(Value* z) const { return Unary(ir::OpCode::kImag, z); }
  Value* Complex(Value* re, Value* im) const { return b_.Binary(ir::OpCode::kComplex, re, im); }
  Value* Atan2(Value* y, Value* x) const { return b_.Binary(ir::OpCode::kAtan2, y, x); }
  Value* Pow(Value* x, Value* y) const { return b_.Binary(ir::OpCode::kPower, x, y); }
  Value* Rem(Value* x, Value* y) const { return b_.Binary(ir::OpCode::kRemainder, x, y); }

  Value* Lt(Value* a, Value* c) const { return b_.Compare("LT", a, c); }
  Value* Lt(Value* a, double c) const { return Lt(a, C(a, c)); }
  Value* Le(Value* a, Value* c) const { return b_.Compare("LE", a, c); }
  Value* Le(Value* a, double c) const { return Le(a, C(a, c)); }
  Value* Gt(Value* a, Value* c) const { return b_.Compare("GT", a, c); }
  Value* Gt(Value* a, double c) const { return Gt(a, C(a, c)); }
  Value* Ge(Value* a, Value* c) const { return b_.Compare("GE", a, c); }
  Value* Ge(Value* a, double c) const { return Ge(a, C(a, c)); }
  Value* Eq(Value* a, Value* c) const { return b_.Compare("EQ", a, c); }
  Value* Eq(Value* a, double c) const { return Eq(a, C(a, c)); }
  Value* Ne(Value* a, Value* c) const { return b_.Compare("NE", a, c); }
  Value* Ne(Value* a, double c) const { return Ne(a, C(a, c)); }

  // sqrt(a^2 + b^2) without overflow or underflow in the squares.
  Value* Hypot(Value* a, Value* b) const;
  // |x| == inf (false for formats without infinities).
  Value* IsInf(Value* x) const;
  Value* IsNan(Value* x) const { return Ne(x, x); }
  // |magnitude| with the sign bit of `sign` (IEEE copysign, through the bit pattern).
  Value* CopySign(Value* magnitude, Value* sign) const;

  // c[0] x^(n-1) + ... + c[n-1], by Horner's rule (coefficients from the highest degree).
  Value* Polynomial(Value* x, std::span<const double> coefficients) const;
  Value* Polynomial(Value* x, std::initializer_list<double> coefficients) const {
    return Polynomial(x, std::span<const double>(coefficients.begin(), coefficients.size()));
  }
  // Clenshaw's recurrence for a Chebyshev series in Cephes' chbevl form:
  // 0.5 * (b0 - b2) after b0 = x * b1 - b2 + c[i] over the coefficients.
  Value* Chebyshev(Value* x, std::span<const double> coefficients) const;

 private:
  OpBuilder& b_;
};

// Whether `x`'s (real or complex part) element type is f64: the f64 algorithms apply.
bool IsF64(const Value* x);
// Largest finite value, smallest normal and epsilon of x's element type (f32 or f64).
double MaxFinite(const Value* x);
double SmallestNormal(const Value* x);
double Epsilon(const Value* x);

// Runs `compute` on `args` in f32 when their element type is a float narrower than f32 (f16,
// bf16, f8...), converting the result back: XLA computes these functions in f32 too, and f32
// carries enough digits to round the narrow result once. Other types run as they are.
Value* WithF32Upcast(OpBuilder& b, std::vector<Value*> args,
                     const std::function<Value*(std::vector<Value*>)>& compute);

}  // namespace vkhlo::passes::chlo
