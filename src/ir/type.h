// Types of values: ranked tensors (rank 0 and zero-size dimensions allowed), optionally with a
// uniform-quantized element type; tuples; and tokens.
//
// A tensor dimension may be dynamic (`?`, kDynamic): shape-polymorphic programs (jax.export with
// symbolic dimensions) have them until refinement (passes/shapes) makes every shape static for
// concrete arguments; the compiler proper only ever sees static shapes. A dynamic dimension
// may carry an upper bound (`tensor<?x4xf32, #stablehlo.bounds<8, ?>>`). The `index` element
// type of shape operands (`tensor<2xindex>`) is a 64-bit signless integer, as StableHLO's
// interpreter treats it on 64-bit hosts: an i64 tensor marked `index`, so that it prints and
// compares as MLIR writes it while everything that computes on it sees i64.
//
// Types are small values: copying one copies its dims (and shares quantization/tuple/bound parts).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "ir/element_type.h"

namespace vkhlo::ir {

// A dynamic dimension size (MLIR's ShapedType::kDynamic), in dims and bounds ("no bound").
inline constexpr int64_t kDynamic = INT64_MIN;
inline bool IsDynamicDim(int64_t d) { return d == kDynamic; }

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
  // A tensor of `index` (i64 marked as index).
  static Type IndexTensor(std::vector<int64_t> dims);
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
  // Product of the dims; -1 if it overflows int64 (the verifier reports that) or a dimension is
  // dynamic (is_static() tells the two apart).
  int64_t num_elements() const { return num_elements_; }
  // Tensors: no dynamic dimension; tuples: every element static; tokens: true.
  bool is_static() const;
  bool is_dynamic_dim(int64_t i) const { return dims_[i] == kDynamic; }
  // The bounds of the dimensions (`#stablehlo.bounds<8, ?>`): empty when the type has none,
  // else one per dimension, kDynamic where a dimension has no bound (static ones never do).
  const std::vector<int64_t>& bounds() const;
  // The same tensor type with these bounds (empty: none).
  Type WithBounds(std::vector<int64_t> bounds) const;
  // An `index` tensor (element_type() is kS64).
  bool is_index() const { return index_; }

  // Tuples.
  const std::vector<Type>& tuple_elements() const;

  // The same shape with another element type (tensors only; bounds kept, `index` dropped).
  Type WithElementType(ElementType element) const;
  // Another shape, same element (bounds dropped: they describe the old dims).
  Type WithDims(std::vector<int64_t> dims) const;

  // MLIR spelling: "tensor<2x3xf32>", "tensor<i1>", "tuple<tensor<f32>, !stablehlo.token>",
  // "!stablehlo.token", "tensor<4x!quant.uniform<i8:f32, 1.0:0>>", "tensor<?x4xf32>",
  // "tensor<?x4xf32, #stablehlo.bounds<8, ?>>", "tensor<2xindex>".
  std::string ToString() const;

  bool operator==(const Type& other) const;
  bool operator!=(const Type& other) const { return !(*this == other); }

 private:
  Kind kind_ = Kind::kInvalid;
  ElementType element_ = ElementType::kF32;
  bool index_ = false;
  int64_t num_elements_ = 1;
  std::vector<int64_t> dims_;
  std::shared_ptr<const std::vector<int64_t>> bounds_;
  std::shared_ptr<const QuantizedElement> quantized_;
  std::shared_ptr<const std::vector<Type>> tuple_;
};

// "!quant.uniform<...>" spelling of a quantized element.
std::string QuantizedElementToString(const QuantizedElement& q);

// Dims as MLIR writes them in a shape: "2x?x3" ("" for rank 0).
std::string DimsToString(const std::vector<int64_t>& dims);

// The element strides of a row-major (last dimension fastest) layout of `dims`. A dimension of
// size 0 counts as 1, so that the strides stay meaningful for an empty tensor's other indices.
std::vector<int64_t> RowMajorStrides(std::span<const int64_t> dims);

// Function signature: "(tensor<f32>, tensor<f32>) -> tensor<f32>".
struct FunctionType {
  std::vector<Type> inputs;
  std::vector<Type> results;
  std::string ToString() const;
  bool operator==(const FunctionType& other) const = default;
};

}  // namespace vkhlo::ir
