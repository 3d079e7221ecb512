#include "passes/quantized_math.h"

#include <fmt/format.h>

#include <cmath>
#include <cstdint>
#include <limits>

#include "passes/op_properties.h"

namespace vkhlo::passes::quantized {
namespace {

using ir::ElementType;
using ir::OpCode;
using ir::Value;

// [lo, hi] of the stored values: storage_min/storage_max when given (min < max), otherwise the
// storage type's range (unsigned 64-bit types stop at 2^63 - 1, as the interpreter's int64 does).
void StorageRange(const ir::QuantizedElement& q, int64_t& lo, int64_t& hi) {
  lo = q.storage_min;
  hi = q.storage_max;
  if (lo < hi) return;
  const int width = ir::BitWidth(q.storage);
  if (ir::IsSignedInteger(q.storage)) {
    lo = width >= 64 ? std::numeric_limits<int64_t>::min() : -(int64_t{1} << (width - 1));
    hi = width >= 64 ? std::numeric_limits<int64_t>::max() : (int64_t{1} << (width - 1)) - 1;
  } else {
    lo = 0;
    hi = width >= 63 ? std::numeric_limits<int64_t>::max() : (int64_t{1} << width) - 1;
  }
}

// One value per slice of the quantized dimension (or one value) as a tensor of `shape`:
// a splat, or a rank-1 constant broadcast along the quantized dimension. `set` writes element i
// of the rank-1 literal (floats rounded to the element type to nearest even, as the
// interpreter's RoundTo does).
template <typename SetFn>
Value* PerSlice(OpBuilder& b, const ir::Type& shape, const ir::QuantizedElement& q, size_t count, SetFn set) {
  const ElementType element = shape.element_type();
  const bool per_axis = q.quantized_dimension.has_value();
  const int64_t n = per_axis ? static_cast<int64_t>(count) : 1;
  auto literal = ir::Literal::Create(ir::Type::Tensor(element, {n}));
  if (!literal.ok()) {
    b.Fail(literal.status());
    return b.Splat(shape, 0.0);
  }
  for (int64_t i = 0; i < n; ++i) set(*literal, i);
  if (!per_axis) {
    auto splat = ir::Literal::CreateSplat(shape, literal->raw());
    if (!splat.ok()) {
      b.Fail(splat.status());
      return b.Splat(shape, 0.0);
    }
    return b.Constant(std::move(*splat));
  }
  Value* values = b.Constant(std::move(*literal));
  return b.BroadcastInDim(values, shape, {*q.quantized_dimension});
}

Value* Scales(OpBuilder& b, const ir::Type& shape, const ir::QuantizedElement& q) {
  return PerSlice(b, shape, q, q.scales.size(),
                  [&](ir::Literal& l, int64_t i) { l.SetFloat(i, q.scales[static_cast<size_t>(i)]); });
}

// Zero points as floats: the interpreter rounds the int64 to a double, then to the type.
Value* FloatZeroPoints(OpBuilder& b, const ir::Type& shape, const ir::QuantizedElement& q) {
  return PerSlice(b, shape, q, q.zero_points.size(), [&](ir::Literal& l, int64_t i) {
    l.SetFloat(i, static_cast<double>(q.zero_points[static_cast<size_t>(i)]));
  });
}

Value* IntZeroPoints(OpBuilder& b, const ir::Type& shape, const ir::QuantizedElement& q) {
  return PerSlice(b, shape, q, q.zero_points.size(),
                  [&](ir::Literal& l, int64_t i) { l.SetInt(i, q.zero_points[static_cast<size_t>(i)]); });
}

// The integer type stored values are widened to before the zero point is subtracted: i32 when
// the difference surely fits (storage of at most 16 bits, zero points below 2^30), else i64,
// which holds every difference the interpreter computes in int64.
ElementType WideType(const ir::QuantizedElement& q) {
  if (ir::BitWidth(q.storage) > 16) return ElementType::kS64;
  for (int64_t zp : q.zero_points) {
    if (zp < -(int64_t{1} << 30) || zp > (int64_t{1} << 30)) return ElementType::kS64;
  }
  return ElementType::kS32;
}

}  // namespace

ir::Type StorageType(const ir::Type& quantized) {
  return ir::Type::Tensor(quantized.element_type(), quantized.dims());
}

ir::Type ExpressedType(const ir::Type& quantized) {
  return ir::Type::Tensor(quantized.quantization()->expressed, quantized.dims());
}

Value* ToStorage(OpBuilder& b, Value* quantized) {
  return b.CreateWithTypes(OpCode::kBitcastConvert, {quantized}, {StorageType(quantized->type())})->result(0);
}

Value* FromStorage(OpBuilder& b, Value* storage, const ir::Type& quantized) {
  return b.CreateWithTypes(OpCode::kBitcastConvert, {storage}, {quantized})->result(0);
}

Value* Quantize(OpBuilder& b, Value* x, const ir::Type& quantized) {
  const ir::QuantizedElement& q = *quantized.quantization();
  const ir::Type shape = ExpressedType(quantized);
  Value* values = x->type().element_type() == q.expressed ? x : b.Convert(x, q.expressed);
  // Each step its own statement: the order of the ops must not depend on argument evaluation.
  Value* scale = Scales(b, shape, q);
  Value* scaled = b.Div(values, scale);
  Value* rounded = b.Unary(OpCode::kRoundNearestEven, scaled);
  Value* zero_point = FloatZeroPoints(b, shape, q);
  Value* shifted = b.Add(rounded, zero_point);
  int64_t lo = 0, hi = 0;
  StorageRange(q, lo, hi);
  Value* low = b.Splat(shape, static_cast<double>(lo));
  Value* high = b.Splat(shape, static_cast<double>(hi));
  // clamp keeps NaN (as the interpreter's comparisons do); the conversion makes it 0.
  Value* clamped = b.Create(OpCode::kClamp, {low, shifted, high})->result(0);
  return b.Convert(clamped, q.storage);
}

Value* Dequantize(OpBuilder& b, Value* storage, const ir::Type& quantized) {
  const ir::QuantizedElement& q = *quantized.quantization();
  const ElementType wide = WideType(q);
  Value* widened = b.Convert(storage, wide);
  Value* zero_point = IntZeroPoints(b, ir::Type::Tensor(wide, quantized.dims()), q);
  Value* difference = b.Sub(widened, zero_point);
  Value* expressed = b.Convert(difference, q.expressed);
  Value* scale = Scales(b, ExpressedType(quantized), q);
  return b.Mul(expressed, scale);
}

Status CheckQuantizedType(const ir::Operation& op, const ir::Type& type) {
  const ir::QuantizedElement& q = *type.quantization();
  size_t expected = 1;
  if (q.quantized_dimension) {
    if (*q.quantized_dimension < 0 || *q.quantized_dimension >= type.rank()) {
      return OpError(op, "has a quantized dimension out of range in " + type.ToString());
    }
    expected = static_cast<size_t>(type.dim(*q.quantized_dimension));
  }
  if (q.scales.size() != expected || q.zero_points.size() != expected) {
    return OpError(op, fmt::format("needs {} scales and zero points in {}", expected, type.ToString()));
  }
  if (!ir::IsFloat(q.expressed) || !ir::IsInteger(q.storage)) {
    return OpError(op, "has an unsupported quantized element in " + type.ToString() +
                           " (integer storage and float expressed types are needed)");
  }
  return OkStatus();
}

}  // namespace vkhlo::passes::quantized
