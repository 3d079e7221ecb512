#include "interp/elementwise_kernels.h"

#include <fmt/format.h>

#include <cmath>
#include <memory>
#include <vector>

#include "ir/element_type.h"

namespace vkhlo::interp::elementwise {
namespace {

bool HasIeeeNans(const ir::FloatFormat& f) {
  return f.has_sign && f.has_infinity && f.has_nan && !f.nan_is_all_ones && !f.negative_zero_is_nan &&
         f.bias == (1 << (f.exponent_bits - 1)) - 1;
}

ElementInfo ComputeInfo(ir::ElementType type) {
  using ir::ElementType;
  ElementInfo info;
  info.type = type;
  info.bytes = ir::StorageBytes(type);
  info.width = ir::BitWidth(type);
  info.is_signed = ir::IsSignedInteger(type);
  if (ir::IsBoolean(type)) {
    info.category = Category::kBool;
  } else if (ir::IsInteger(type)) {
    info.category = Category::kInt;
  } else if (type == ElementType::kF32) {
    info.category = Category::kF32;
  } else if (type == ElementType::kF64) {
    info.category = Category::kF64;
  } else if (type == ElementType::kC64) {
    info.category = Category::kC64;
  } else if (type == ElementType::kC128) {
    info.category = Category::kC128;
  } else {
    info.category = Category::kNarrowFloat;
    const ir::FloatFormat& f = ir::GetFloatFormat(type);
    info.ieee_nan = HasIeeeNans(f);
    info.mantissa_bits = f.mantissa_bits;
    info.sign_shift = f.exponent_bits + f.mantissa_bits;
    info.pattern_mask = static_cast<uint32_t>(LowMask(info.width));
    // One table per narrow type for the life of the process, never freed. It is a bare array so
    // that info.decode, kept in InfoOf's table, points at the allocation itself: a vector object
    // known only through its data() would be unreachable, a leak to LeakSanitizer.
    const size_t count = size_t{1} << info.width;
    double* table = new double[count];
    for (uint64_t bits = 0; bits < count; ++bits) {
      double v = ir::DecodeFloat(type, bits);
      if (std::isnan(v) && info.ieee_nan) {
        // Keep the payload the way hardware widens a float: mantissa to the top of double's.
        const uint64_t sign = (bits >> info.sign_shift) & 1;
        const uint64_t mantissa = bits & LowMask(f.mantissa_bits);
        const uint64_t d = (sign << 63) | (uint64_t{0x7FF} << 52) | (mantissa << (52 - f.mantissa_bits));
        std::memcpy(&v, &d, 8);
      }
      table[bits] = v;
    }
    info.decode = table;
  }
  return info;
}

}  // namespace

ElementInfo InfoOf(ir::ElementType type) {
  static const std::vector<ElementInfo>* infos = [] {
    auto* v = new std::vector<ElementInfo>();
    for (int t = 0; t < ir::kNumElementTypes; ++t) v->push_back(ComputeInfo(static_cast<ir::ElementType>(t)));
    return v;
  }();
  return (*infos)[static_cast<size_t>(type)];
}

uint64_t EncodeNarrow(const ElementInfo& info, double value) {
  if (!info.ieee_nan) return ir::EncodeFloat(info.type, value);
  // IEEE-style formats (bf16, f16, f8E5M2, f8E4M3, f8E3M4): round the double's bits directly
  // (the hot path of every narrow-float op; same results as ir::EncodeFloat).
  uint64_t d;
  std::memcpy(&d, &value, 8);
  const int m = info.mantissa_bits;
  const int e = info.sign_shift - m;
  const uint64_t sign = (d >> 63) << info.sign_shift;
  const uint64_t exponent_mask = LowMask(e) << m;
  const uint64_t magnitude = d & ~(uint64_t{1} << 63);
  if (magnitude >= (uint64_t{0x7FF} << 52)) {
    if (magnitude == (uint64_t{0x7FF} << 52)) return sign | exponent_mask;  // infinity
    uint64_t mantissa = (d >> (52 - m)) & LowMask(m);  // NaN: keep the payload's top bits
    if (mantissa == 0) mantissa = uint64_t{1} << (m - 1);  // still a NaN: set the quiet bit
    return sign | exponent_mask | mantissa;
  }
  const int bias = (1 << (e - 1)) - 1;
  const int exponent = static_cast<int>(magnitude >> 52) - 1023;
  if (exponent > bias) return sign | exponent_mask;  // beyond the largest binade: infinity
  const uint64_t significand = (magnitude & LowMask(52)) | (magnitude >> 52 != 0 ? uint64_t{1} << 52 : 0);
  const int min_exponent = 1 - bias;
  // Bits of the double's 53-bit significand below the target's last place.
  const int shift = 52 - m + (exponent < min_exponent ? min_exponent - exponent : 0);
  if (shift > 54) return sign;  // below half the smallest subnormal
  uint64_t rounded = significand >> shift;
  const uint64_t rest = significand & LowMask(shift);
  const uint64_t half = uint64_t{1} << (shift - 1);
  if (rest > half || (rest == half && (rounded & 1))) ++rounded;
  // Normal results add the (implicit-bit-carrying) significand onto the exponent field; a carry
  // out of the significand moves to the next binade, up to infinity.
  const uint64_t bits = exponent < min_exponent
                            ? rounded
                            : (static_cast<uint64_t>(exponent + bias - 1) << m) + rounded;
  return sign | bits;
}

Status UnsupportedElementType(ir::ElementType type) {
  return InvalidArgumentError(fmt::format("does not support element type {}", ir::ElementTypeName(type)));
}

Status MixedElementTypes(ir::ElementType a, ir::ElementType b) {
  return InvalidArgumentError(fmt::format("operands of element types {} and {} do not combine",
                                          ir::ElementTypeName(a), ir::ElementTypeName(b)));
}

Status ShapeMismatch(const ir::Literal& operand, const ir::Type& result_type) {
  return InvalidArgumentError(fmt::format("operand of type {} does not match the result type {}",
                                          operand.type().ToString(), result_type.ToString()));
}

StatusOr<InterpValues> EvalElementwise(EvalContext& context, const ir::Operation& op, const InterpValues& operands,
                                       int arity, const ComputeFn& compute, bool quantized_as_storage) {
  if (arity >= 0 && operands.size() != static_cast<size_t>(arity)) {
    return context.OpError(op, fmt::format("takes {} operands, given {}", arity, operands.size()));
  }
  if (op.num_results() != 1 || !op.result(0)->type().is_tensor()) {
    return context.OpError(op, "must have one tensor result");
  }
  const ir::Type& result_type = op.result(0)->type();
  std::vector<ir::Literal> dequantized;
  dequantized.reserve(operands.size());
  std::vector<const ir::Literal*> inputs;
  inputs.reserve(operands.size());
  for (size_t i = 0; i < operands.size(); ++i) {
    if (!operands[i].is_tensor()) return context.OpError(op, fmt::format("operand {} is not a tensor", i));
  }
  for (const InterpValue& operand : operands) {
    const ir::Literal& literal = operand.literal();
    if (literal.type().is_quantized() && !quantized_as_storage) {
      auto values = Dequantize(literal);
      if (!values.ok()) return context.OpError(op, values.status().message());
      dequantized.push_back(std::move(*values));
      inputs.push_back(&dequantized.back());
    } else {
      inputs.push_back(&literal);
    }
  }
  const bool requantize = result_type.is_quantized() && !quantized_as_storage;
  auto result = compute(inputs, requantize ? ExpressedType(result_type) : result_type);
  if (result.ok() && requantize) result = Quantize(*result, result_type);
  if (!result.ok()) {
    if (result.status().code() == StatusCode::kUnimplemented) {
      return context.Unimplemented(op, result.status().message());
    }
    return context.OpError(op, result.status().message());
  }
  return InterpValues{InterpValue::Tensor(std::move(*result))};
}

}  // namespace vkhlo::interp::elementwise
