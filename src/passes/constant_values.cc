#include "passes/constant_values.h"

#include <cmath>
#include <cstring>

namespace vkhlo::passes {

using ir::ElementType;

const ir::Literal* ConstantLiteral(const ir::Value* value) {
  const ir::Operation* op = value->defining_op();
  if (op == nullptr || op->code() != ir::OpCode::kConstant) return nullptr;
  const ir::Attribute* attribute = op->attribute("value");
  return attribute != nullptr ? attribute->AsDenseElements() : nullptr;
}

bool AllElements(const ir::Literal& literal,
                 const std::function<bool(const ir::Literal&, int64_t)>& element,
                 int64_t max_elements) {
  if (literal.type().is_quantized()) return false;
  if (literal.is_splat()) return element(literal, 0);
  const int64_t n = literal.num_elements();
  if (n > max_elements) return false;
  for (int64_t i = 0; i < n; ++i) {
    if (!element(literal, i)) return false;
  }
  return true;
}

bool IsConstantWhere(const ir::Value* value,
                     const std::function<bool(const ir::Literal&, int64_t)>& element) {
  const ir::Literal* literal = ConstantLiteral(value);
  return literal != nullptr && AllElements(*literal, element);
}

namespace {

// Float formats whose only zero is +0 (FNUZ: the -0 pattern is NaN), where x + 0 == x.
bool HasNegativeZero(ElementType type) {
  const ir::FloatFormat& format = ir::GetFloatFormat(type);
  return format.has_sign && !format.negative_zero_is_nan;
}

bool IsZeroWithSign(double v, bool negative) { return v == 0.0 && std::signbit(v) == negative; }

}  // namespace

bool IsAdditiveIdentity(const ir::Literal& literal, int64_t index) {
  const ElementType type = literal.element_type();
  if (ir::IsComplex(type)) {
    const std::complex<double> c = literal.GetComplex(index);
    return IsZeroWithSign(c.real(), true) && IsZeroWithSign(c.imag(), true);
  }
  if (ir::IsFloat(type)) {
    const double v = literal.GetFloat(index);
    return HasNegativeZero(type) ? IsZeroWithSign(v, true) : v == 0.0;
  }
  return literal.GetInt(index) == 0;
}

bool IsSubtractiveIdentity(const ir::Literal& literal, int64_t index) {
  const ElementType type = literal.element_type();
  if (ir::IsComplex(type)) {
    const std::complex<double> c = literal.GetComplex(index);
    return IsZeroWithSign(c.real(), false) && IsZeroWithSign(c.imag(), false);
  }
  if (ir::IsFloat(type)) return IsZeroWithSign(literal.GetFloat(index), false);
  return literal.GetInt(index) == 0;
}

bool IsMultiplicativeIdentity(const ir::Literal& literal, int64_t index) {
  const ElementType type = literal.element_type();
  if (ir::IsComplex(type)) return false;
  if (ir::IsFloat(type)) return literal.GetFloat(index) == 1.0;
  return literal.GetInt(index) == 1;
}

bool IsIntegerZero(const ir::Literal& literal, int64_t index) {
  const ElementType type = literal.element_type();
  return (ir::IsInteger(type) || ir::IsBoolean(type)) && literal.GetInt(index) == 0;
}

bool IsAllOnes(const ir::Literal& literal, int64_t index) {
  const ElementType type = literal.element_type();
  if (ir::IsBoolean(type)) return literal.GetInt(index) == 1;
  if (ir::IsSignedInteger(type)) return literal.GetInt(index) == -1;
  if (ir::IsUnsignedInteger(type)) {
    const int width = ir::BitWidth(type);
    const uint64_t ones = width >= 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1;
    return static_cast<uint64_t>(literal.GetInt(index)) == ones;
  }
  return false;
}

bool SameElement(const ir::Literal& a, int64_t i, const ir::Literal& b, int64_t j) {
  const size_t size = static_cast<size_t>(ir::StorageBytes(a.element_type()));
  const uint8_t* pa = a.raw().data() + (a.is_splat() ? 0 : static_cast<size_t>(i) * size);
  const uint8_t* pb = b.raw().data() + (b.is_splat() ? 0 : static_cast<size_t>(j) * size);
  return std::memcmp(pa, pb, size) == 0;
}

StatusOr<ir::Literal> SplatOf(const ir::Literal& literal, int64_t index, const ir::Type& type) {
  const size_t size = static_cast<size_t>(ir::StorageBytes(literal.element_type()));
  const uint8_t* p = literal.raw().data() + (literal.is_splat() ? 0 : static_cast<size_t>(index) * size);
  return ir::Literal::CreateSplat(type, std::span<const uint8_t>(p, size));
}

const ir::Literal* SplatConstant(const ir::Value* value) {
  const ir::Literal* literal = ConstantLiteral(value);
  if (literal == nullptr || literal->type().is_quantized()) return nullptr;
  if (literal->is_splat()) return literal;
  if (literal->num_elements() == 0) return nullptr;
  const bool all_same = AllElements(*literal, [&](const ir::Literal& l, int64_t i) {
    return SameElement(l, i, l, 0);
  });
  return all_same ? literal : nullptr;
}

}  // namespace vkhlo::passes
