#include "runtime/tensor_desc.h"

#include <fmt/format.h>

#include <cstring>

namespace vkhlo::runtime {

int64_t TensorDesc::num_elements() const {
  int64_t n = 1;
  for (int64_t d : dims) n *= d;
  return n;
}

TensorType TensorDesc::ToTensorType() const {
  return TensorType{std::string(primitive_util::StableHloElementTypeName(element)), dims};
}

StatusOr<TensorDesc> DescOf(const TensorType& type) {
  const PrimitiveType element = primitive_util::PrimitiveTypeFromStableHloName(type.element_type);
  if (element == PRIMITIVE_TYPE_INVALID) return InvalidArgumentError("unknown element type '" + type.element_type + "'");
  for (int64_t d : type.dims) {
    if (d < 0) return InvalidArgumentError("negative dimension in " + type.ToString());
  }
  const int64_t n = type.num_elements();
  uint64_t bytes = 0;
  if (n < 0 || __builtin_mul_overflow(static_cast<uint64_t>(n), static_cast<uint64_t>(primitive_util::ByteWidth(element)),
                                      &bytes) ||
      bytes > (uint64_t{1} << 62)) {
    return InvalidArgumentError("too many elements in " + type.ToString() + " (its size overflows int64)");
  }
  return TensorDesc{element, type.dims};
}

uint64_t BufferBytes(const TensorDesc& type) { return (type.storage_bytes() + 3) / 4 * 4; }

Shape ShapeOf(const TensorDesc& type) { return ShapeUtil::MakeShape(type.element, type.dims); }

StatusOr<TensorDesc> DescOf(const Shape& shape) {
  if (!shape.IsArray()) return InvalidArgumentError(shape.ToString() + " is not an array");
  return DescOf(TensorType{std::string(primitive_util::StableHloElementTypeName(shape.element_type())),
                           shape.dimensions()});
}

StatusOr<Literal> LiteralFromBytes(const TensorDesc& type, std::span<const uint8_t> bytes) {
  if (bytes.size() != type.storage_bytes()) {
    return InvalidArgumentError(fmt::format("{} bytes of data for {} ({} bytes)", bytes.size(), type.ToString(),
                                            type.storage_bytes()));
  }
  VKHLO_ASSIGN_OR_RETURN(Literal literal, Literal::Create(ShapeOf(type)));
  if (!bytes.empty()) std::memcpy(literal.untyped_data(), bytes.data(), bytes.size());
  return literal;
}

std::span<const uint8_t> LiteralBytes(const Literal& literal) {
  return {static_cast<const uint8_t*>(literal.untyped_data()), static_cast<size_t>(literal.size_bytes())};
}

int64_t IntegerFromBytes(std::span<const uint8_t> bytes, PrimitiveType element_type) {
  uint64_t raw = 0;
  for (size_t i = 0; i < bytes.size() && i < 8; ++i) raw |= uint64_t{bytes[i]} << (8 * i);
  const int width = primitive_util::BitWidth(element_type);
  if (primitive_util::IsSignedIntegralType(element_type) && width < 64) {
    const uint64_t sign = uint64_t{1} << (width - 1);
    raw &= (uint64_t{1} << width) - 1;
    return static_cast<int64_t>((raw ^ sign) - sign);
  }
  return static_cast<int64_t>(raw);
}

StatusOr<std::vector<uint8_t>> IntegerToBytes(int64_t value, PrimitiveType element_type) {
  if (!primitive_util::IsIntegralType(element_type) && element_type != PRED) {
    return InvalidArgumentError(fmt::format("{} holds no integer", primitive_util::StableHloElementTypeName(element_type)));
  }
  std::vector<uint8_t> bytes(static_cast<size_t>(primitive_util::ByteWidth(element_type)));
  const uint64_t raw = static_cast<uint64_t>(value);
  for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<uint8_t>(raw >> (8 * i));
  return bytes;
}

}  // namespace vkhlo::runtime
