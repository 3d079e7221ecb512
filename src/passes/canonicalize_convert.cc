// Conversions that do nothing:
//   convert(x) : type(x)                   -> x
//   convert(convert(x : A) : B) : C         -> convert(x) : C, or x when C is A,
// when every value of A survives the trip through B unchanged (B is "lossless" for A: si8 ->
// si32, f16 -> f32, bf16 -> f32, i1 -> most types, ui8 -> f16...). Then converting through B
// cannot change the value the final conversion sees, and conversions depend only on the value,
// except that integer -> integer wraps while float -> integer saturates (so integers through a
// float to another integer type are left alone). Narrowing or float -> int steps never qualify.
#include <array>
#include <atomic>
#include <cmath>

#include "passes/canonicalize_rules.h"

namespace vkhlo::passes::canonicalize {
namespace {

using ir::ElementType;
using ir::OpCode;

bool IsExactlyRepresentable(ElementType type, double value) {
  const double back = ir::DecodeFloat(type, ir::EncodeFloat(type, value));
  return back == value;
}

bool IntegerFitsFloat(ElementType from, ElementType to) {
  const int width = ir::BitWidth(from);
  const bool is_signed = ir::IsSignedInteger(from);
  if (to == ElementType::kF64) return width <= 32 || (width <= 53 && !is_signed);
  if (width > 16) return false;  // only f64 has more than 24 significant bits
  const int64_t lo = is_signed ? -(int64_t{1} << (width - 1)) : 0;
  const int64_t hi = is_signed ? (int64_t{1} << (width - 1)) - 1 : (int64_t{1} << width) - 1;
  for (int64_t v = lo; v <= hi; ++v) {
    if (!IsExactlyRepresentable(to, static_cast<double>(v))) return false;
  }
  return true;
}

bool FloatFitsFloat(ElementType from, ElementType to) {
  if (from == ElementType::kF32) return to == ElementType::kF64;
  if (from == ElementType::kF64) return false;
  // Every bit pattern of a <= 16-bit format, specials included, must come back.
  const int width = ir::BitWidth(from);
  for (uint64_t bits = 0; bits < (uint64_t{1} << width); ++bits) {
    const double value = ir::DecodeFloat(from, bits);
    const double through = ir::DecodeFloat(to, ir::EncodeFloat(to, value));
    if (std::isnan(value)) {
      if (!std::isnan(through)) return false;
      continue;
    }
    if (ir::EncodeFloat(from, through) != bits) return false;
  }
  return true;
}

bool ComputeLossless(ElementType from, ElementType to) {
  if (from == to) return true;
  if (ir::IsComplex(from)) {
    return ir::IsComplex(to) && FloatFitsFloat(ir::ComplexPartType(from), ir::ComplexPartType(to));
  }
  // A real value becomes (x, 0) and comes back as the real part.
  if (ir::IsComplex(to)) return ComputeLossless(from, ir::ComplexPartType(to));
  if (ir::IsBoolean(from)) {  // false/true become 0/1 (0.0/1.0) and convert back
    return !ir::IsFloat(to) || (IsExactlyRepresentable(to, 0.0) && IsExactlyRepresentable(to, 1.0));
  }
  if (ir::IsBoolean(to)) return false;
  if (ir::IsInteger(from)) {
    if (ir::IsFloat(to)) return IntegerFitsFloat(from, to);
    const int wf = ir::BitWidth(from), wt = ir::BitWidth(to);
    if (ir::IsSignedInteger(from)) return ir::IsSignedInteger(to) && wt >= wf;
    return ir::IsUnsignedInteger(to) ? wt >= wf : wt > wf;
  }
  if (ir::IsFloat(from) && ir::IsFloat(to)) return FloatFitsFloat(from, to);
  return false;  // float -> integer truncates
}

// Cached: the float checks enumerate up to 2^16 values. Races only repeat the computation.
bool IsLossless(ElementType from, ElementType to) {
  static std::array<std::atomic<int8_t>, ir::kNumElementTypes * ir::kNumElementTypes> cache{};
  const size_t index = static_cast<size_t>(from) * ir::kNumElementTypes + static_cast<size_t>(to);
  std::atomic<int8_t>& entry = cache[index];
  int8_t known = entry.load(std::memory_order_relaxed);
  if (known == 0) {
    known = ComputeLossless(from, to) ? 1 : 2;
    entry.store(known, std::memory_order_relaxed);
  }
  return known == 1;
}

}  // namespace

RewriteResult SimplifyConvert(ir::Operation& op, OpBuilder& builder) {
  if (op.code() != OpCode::kConvert) return Keep();
  ir::Value* x = op.operand(0);
  const ir::Type& result = op.result(0)->type();
  if (result.is_quantized() || x->type().is_quantized()) return Keep();
  if (x->type() == result) return Replace(x);
  ir::Operation* inner = x->defining_op();
  if (inner == nullptr || inner->code() != OpCode::kConvert) return Keep();
  ir::Value* source = inner->operand(0);
  if (source->type().is_quantized() ||
      !IsLossless(source->type().element_type(), x->type().element_type())) {
    return Keep();
  }
  if (source->type() == result) return Replace(source);
  // To another type, B's value converts as A's would, except integer -> integer wraps where
  // float -> integer saturates: an integer through a float to another integer type stays.
  const ir::ElementType a = source->type().element_type(), b = x->type().element_type();
  if (ir::IsInteger(a) && !ir::IsInteger(b) && !ir::IsBoolean(b) && ir::IsInteger(result.element_type())) {
    return Keep();
  }
  return Replace(builder.Convert(source, result.element_type()));
}

}  // namespace vkhlo::passes::canonicalize
