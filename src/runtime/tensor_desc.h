// A tensor's type as the runtime moves it (issue 22: the runtime knows no IR type): an element
// type (the public PrimitiveType) and static dimensions. Device buffers hold the elements in
// storage layout — row-major, ByteWidth bytes each (i1 and the sub-byte types a byte each, as a
// Literal holds them) — rounded up to whole 32-bit words.
//
// The compiler converts its IR types to these where it hands values to the runtime
// (runtime/ir_tensor_desc.h); a plan's values carry TensorTypes, read through DescOf.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "vkhlo/literal.h"
#include "vkhlo/primitive_type.h"
#include "vkhlo/shape.h"
#include "vkhlo/runtime.h"
#include "vkhlo/status.h"

namespace vkhlo::runtime {

struct TensorDesc {
  PrimitiveType element = PRIMITIVE_TYPE_INVALID;
  std::vector<int64_t> dims;

  int64_t rank() const { return static_cast<int64_t>(dims.size()); }
  int64_t dim(int64_t i) const { return dims[static_cast<size_t>(i)]; }
  // The product of the dims (DescOf refuses types whose product overflows).
  int64_t num_elements() const;
  // Bytes of one element in storage layout (primitive_util::ByteWidth).
  uint64_t element_bytes() const { return static_cast<uint64_t>(primitive_util::ByteWidth(element)); }
  // Bytes of the elements in storage layout (what Buffer::ToHost returns).
  uint64_t storage_bytes() const { return element_bytes() * static_cast<uint64_t>(num_elements()); }
  // The same element type with other dimensions.
  TensorDesc WithDims(std::vector<int64_t> new_dims) const { return TensorDesc{element, std::move(new_dims)}; }
  TensorType ToTensorType() const;
  std::string ToString() const { return ToTensorType().ToString(); }  // "tensor<2x3xf32>"
  bool operator==(const TensorDesc&) const = default;
};

// `type` checked: a known element type, no negative dimension, a size that fits in 64 bits.
StatusOr<TensorDesc> DescOf(const TensorType& type);

// Bytes a tensor of `type` takes in a buffer: storage bytes rounded up to whole words.
uint64_t BufferBytes(const TensorDesc& type);

// Between the runtime's tensors and the public host values (Shape, Literal), which keep the
// same storage per element: conversions copy bytes.
Shape ShapeOf(const TensorDesc& type);  // the default (row-major) layout
StatusOr<TensorDesc> DescOf(const Shape& shape);  // array shapes; the layout is not the type's
// A literal of `type` holding `bytes` (storage layout; empty for an empty tensor).
StatusOr<Literal> LiteralFromBytes(const TensorDesc& type, std::span<const uint8_t> bytes);
// An array literal's elements in storage layout (row-major, whatever its layout).
std::span<const uint8_t> LiteralBytes(const Literal& literal);

// The integer (or boolean) value of `element_type` held in `bytes` (little-endian, at most 8;
// sub-word signed integers sign-extended): how the host reads a predicate or an index.
int64_t IntegerFromBytes(std::span<const uint8_t> bytes, PrimitiveType element_type);
// `value` in storage layout for a scalar of integer (or boolean) `element_type`.
StatusOr<std::vector<uint8_t>> IntegerToBytes(int64_t value, PrimitiveType element_type);

}  // namespace vkhlo::runtime
