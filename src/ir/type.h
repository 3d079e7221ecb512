// Types of values: ranked tensors with static shapes (rank 0 and zero-size dimensions allowed),
// optionally with a uniform-quantized element type; tuples; and tokens.
//
// Types are small values: copying one copies its dims (and shares quantization/tuple parts).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ir/element_type.h"

namespace vkhlo::ir {

// `!quant.uniform<storage<min:max>:expressed[:axis], scale:zero_point | {scale:zp, ...}>`.
struct QuantizedElement {
  ElementType storage = ElementType::kS8;
  int64_t storage_min = 0;
  int64_t storage_max = 0;
  ElementType expressed = ElementType::kF32;
  std::optional<int32_t> quantized_dimension;  // per-axis quantization
  std::vector<double> scales;                  // one (per-tensor) or one per slice
  std::vector<int64_t> zero_points;
  bool operator==(const QuantizedElement& other) const = default;
};

class Type {
 public:
  enum class Kind : uint8_t { kInvalid, kTensor, kTuple, kToken };

  Type() = default;  // kInvalid
  static Type Tensor(ElementType element, std::vector<int64_t> dims);
  static Type Scalar(ElementType element) { return Tensor(element, {}); }
  static Type QuantizedTensor(QuantizedElement element, std::vector<int64_t> dims);
  static Type Tuple(std::vector<Type> elements);
  static Type Token();

  Kind kind() const { return kind_; }
  bool is_valid() const { return kind_ != Kind::kInvalid; }
  bool is_tensor() const { return kind_ == Kind::kTensor; }
  bool is_tuple() const { return kind_ == Kind::kTuple; }
  bool is_token() const { return kind_ == Kind::kToken; }
  bool is_quantized() const { return quantized_ != nullptr; }

  // Tensors: the element type (for quantized tensors, the storage type).
  ElementType element_type() const { return element_; }
  const QuantizedElement* quantization() const { return quantized_.get(); }
  const std::vector<int64_t>& dims() const { return dims_; }
  int64_t rank() const { return static_cast<int64_t>(dims_.size()); }
  int64_t dim(int64_t i) const { return dims_[i]; }
  // Product of the dims; -1 if it overflows int64 (the verifier reports that).
  int64_t num_elements() const { return num_elements_; }

  // Tuples.
  const std::vector<Type>& tuple_elements() const;

  // The same shape with another element type (tensors only).
  Type WithElementType(ElementType element) const;
  Type WithDims(std::vector<int64_t> dims) const;

  // MLIR spelling: "tensor<2x3xf32>", "tensor<i1>", "tuple<tensor<f32>, !stablehlo.token>",
  // "!stablehlo.token", "tensor<4x!quant.uniform<i8:f32, 1.0:0>>".
  std::string ToString() const;

  bool operator==(const Type& other) const;
  bool operator!=(const Type& other) const { return !(*this == other); }

 private:
  Kind kind_ = Kind::kInvalid;
  ElementType element_ = ElementType::kF32;
  int64_t num_elements_ = 1;
  std::vector<int64_t> dims_;
  std::shared_ptr<const QuantizedElement> quantized_;
  std::shared_ptr<const std::vector<Type>> tuple_;
};

// "!quant.uniform<...>" spelling of a quantized element.
std::string QuantizedElementToString(const QuantizedElement& q);

// Function signature: "(tensor<f32>, tensor<f32>) -> tensor<f32>".
struct FunctionType {
  std::vector<Type> inputs;
  std::vector<Type> results;
  std::string ToString() const;
  bool operator==(const FunctionType& other) const = default;
};

}  // namespace vkhlo::ir
