#include "passes/chlo/math.h"

#include <limits>

namespace vkhlo::passes::chlo {

using ir::ElementType;

namespace {

ElementType UnsignedOfWidth(int bits) {
  switch (bits) {
    case 64: return ElementType::kU64;
    case 32: return ElementType::kU32;
    case 16: return ElementType::kU16;
    case 8: return ElementType::kU8;
    case 4: return ElementType::kU4;
    default: return ElementType::kU2;
  }
}

ElementType PartType(const Value* x) { return ir::ComplexPartType(x->type().element_type()); }

}  // namespace

bool IsF64(const Value* x) { return PartType(x) == ElementType::kF64; }

double MaxFinite(const Value* x) {
  return IsF64(x) ? std::numeric_limits<double>::max() : std::numeric_limits<float>::max();
}
double SmallestNormal(const Value* x) {
  return IsF64(x) ? std::numeric_limits<double>::min() : std::numeric_limits<float>::min();
}
double Epsilon(const Value* x) {
  return IsF64(x) ? std::numeric_limits<double>::epsilon() : std::numeric_limits<float>::epsilon();
}

Value* Math::IsInf(Value* x) const {
  const ElementType type = x->type().element_type();
  if (ir::IsFloat(type) && !ir::GetFloatFormat(type).has_infinity) {
    return b_.Splat(x->type().WithElementType(ElementType::kI1), 0);
  }
  return Eq(Abs(x), std::numeric_limits<double>::infinity());
}

Value* Math::Hypot(Value* a, Value* b) const {
  Value* x = Abs(a);
  Value* y = Abs(b);
  Value* mx = Max(x, y);
  Value* mn = Min(x, y);
  Value* r = Div(mn, mx);
  Value* result = Mul(mx, Sqrt(Add(1.0, Mul(r, r))));
  // mx = 0 (0/0) and mx = inf (inf/inf) make r NaN; the results are mx.
  return Select(Or(Eq(mx, 0.0), IsInf(mx)), mx, result);
}

Value* Math::CopySign(Value* magnitude, Value* sign) const {
  const ElementType type = magnitude->type().element_type();
  const int bits = ir::BitWidth(type);
  const ElementType bits_type = UnsignedOfWidth(bits);
  const uint64_t sign_bit = uint64_t{1} << (bits - 1);
  Value* m = b_.BitcastConvert(magnitude, bits_type);
  Value* s = b_.BitcastConvert(sign, bits_type);
  Value* result = Or(And(m, b_.SplatBits(m->type(), sign_bit - 1)),
                     And(s, b_.SplatBits(s->type(), sign_bit)));
  return b_.BitcastConvert(result, type);
}

Value* Math::Polynomial(Value* x, std::span<const double> coefficients) const {
  if (coefficients.empty()) return C(x, 0.0);
  Value* p = C(x, coefficients[0]);
  for (size_t i = 1; i < coefficients.size(); ++i) p = Add(Mul(x, p), coefficients[i]);
  return p;
}

Value* Math::Chebyshev(Value* x, std::span<const double> coefficients) const {
  Value* b0 = C(x, 0.0);
  Value* b1 = b0;
  Value* b2 = b0;
  for (double c : coefficients) {
    b2 = b1;
    b1 = b0;
    b0 = Add(Sub(Mul(x, b1), b2), c);
  }
  return Mul(Sub(b0, b2), 0.5);
}

Value* WithF32Upcast(OpBuilder& b, std::vector<Value*> args,
                     const std::function<Value*(std::vector<Value*>)>& compute) {
  const ElementType type = args.front()->type().element_type();
  if (!ir::IsFloat(type) || type == ElementType::kF32 || type == ElementType::kF64) return compute(args);
  for (Value*& arg : args) arg = b.Convert(arg, ElementType::kF32);
  return b.Convert(compute(std::move(args)), type);
}

}  // namespace vkhlo::passes::chlo
