// What an op's verifier and shape function see: the op's name and location (for messages), its
// operand and result types, attributes and regions. The same context serves VerifyOperation
// (an Operation is there) and InferResultTypes (only operand types and attributes; no results).
//
// It also carries the helpers every group of ops shares: reading attributes leniently about
// their representation and strictly about their values, element type classes, region
// signatures, and dimension list checks that report in the verifier's error format.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "ir/module.h"
#include "verify/diagnostic.h"
#include "vkhlo/status.h"

namespace vkhlo::verify {

// ---- Element type classes ("tensor of integer or floating-point type") ----
enum TypeClass : uint32_t {
  kBoolean = 1u << 0,
  kSignedInt = 1u << 1,
  kUnsignedInt = 1u << 2,
  kInt = kSignedInt | kUnsignedInt,
  kFloat = 1u << 3,
  kComplex = 1u << 4,
  kQuantized = 1u << 5,  // uniform quantized (per-tensor or per-axis)
  kAnyElement = kBoolean | kInt | kFloat | kComplex | kQuantized,
};
// True when `type` is a tensor whose element type is in `classes`.
bool IsTensorOf(const ir::Type& type, uint32_t classes);
// "tensor of integer, floating-point or complex type".
std::string DescribeTensorOf(uint32_t classes);

// ---- Type relations ----
// Dynamic dimensions (`?`) are compatible with any size: a constraint between a dynamic size and
// another is deferred until refinement makes it static (passes/shapes), where the verifier
// checks it again.
bool CompatibleDim(int64_t a, int64_t b);
bool CompatibleDims(std::span<const int64_t> a, std::span<const int64_t> b);
// The more precise of two compatible sizes (the static one, if any).
int64_t MergeDim(int64_t a, int64_t b);
// Tensors of compatible shapes (same rank; sizes equal where both are static).
bool SameShape(const ir::Type& a, const ir::Type& b);
// Equal types but for dynamic sizes, which are compatible with any size (bounds are not compared).
bool CompatibleExact(const ir::Type& a, const ir::Type& b);
// Equal element types; two quantized element types are compatible when their storage and
// expressed types and storage ranges agree (scales, zero points and axis may differ).
bool CompatibleElement(const ir::Type& a, const ir::Type& b);
// Compatible shapes and element types (exact equality of elements for non-quantized tensors).
bool CompatibleType(const ir::Type& a, const ir::Type& b);
// The spec's is_promotable(x, y): same kind of element (bool/int/float/complex, signedness),
// and y at least as wide; for quantized, same storage and promotable expressed types.
bool IsPromotable(const ir::Type& from, const ir::Type& to);
// 0-dimensional tensor of the element type of `type` (quantization kept).
ir::Type ScalarOf(const ir::Type& type);
// Element type names for messages ("f32", "!quant.uniform<i8:f32, 0.1>").
std::string ElementName(const ir::Type& type);

// ---- Checked arithmetic (dims may be near INT64_MAX) ----
std::optional<int64_t> CheckedAdd(int64_t a, int64_t b);
std::optional<int64_t> CheckedMul(int64_t a, int64_t b);

// Whether a type is well formed: non-negative dims, element count in int64, a valid
// quantized element, well-formed tuple elements. Returns a description of the defect or "".
std::string TypeDefect(const ir::Type& type);

// An int64 matrix attribute (padding, replica_groups, source_target_pairs).
struct IntMatrix {
  int64_t rows = 0;
  int64_t cols = 0;
  std::vector<int64_t> values;  // row-major
  int64_t at(int64_t r, int64_t c) const { return values[static_cast<size_t>(r * cols + c)]; }
};

// A region's signature: its block's argument types and its stablehlo.return operand types.
struct RegionSignature {
  std::vector<ir::Type> arguments;
  std::vector<ir::Type> results;
  std::string ToString() const;  // "(tensor<f32>, tensor<f32>) -> tensor<f32>"
};
std::string SignatureToString(std::span<const ir::Type> arguments, std::span<const ir::Type> results);

class OpContext {
 public:
  OpContext(ir::OpCode code, std::span<const ir::Type> operands, std::span<const ir::Type> results,
            const std::vector<ir::NamedAttribute>& attributes,
            std::span<const ir::Region* const> regions, const ir::Operation* op, std::string prefix);

  ir::OpCode code() const { return code_; }
  std::string_view name() const;
  // The op being verified; nullptr under InferResultTypes and VerifyTypes (types only).
  const ir::Operation* op() const { return op_; }
  bool inferring() const { return op_ == nullptr && results_.empty(); }

  size_t num_operands() const { return operands_.size(); }
  const ir::Type& operand(size_t i) const { return operands_[i]; }
  std::span<const ir::Type> operands() const { return operands_; }
  // Result types (empty under InferResultTypes).
  size_t num_results() const { return results_.size(); }
  const ir::Type& result(size_t i) const { return results_[i]; }
  std::span<const ir::Type> results() const { return results_; }
  size_t num_regions() const { return regions_.size(); }
  const ir::Region* region(size_t i) const { return regions_[i]; }
  const std::vector<ir::NamedAttribute>& attributes() const { return attributes_; }

  // The verifier's error, at this op.
  Status Error(std::string_view what, std::string_view expected, std::string_view found) const;

  // ---- Operand checks ----
  // `operand(i)` must be a tensor of `classes`; `label` names it in the spec ("operand (I1)").
  Status RequireTensor(size_t i, uint32_t classes, std::string_view label) const;
  // Each of operands [first, last) must be a tensor of `classes`.
  Status RequireTensors(size_t first, size_t last, uint32_t classes, std::string_view label) const;
  Status RequireResultTensor(size_t i, uint32_t classes, std::string_view label) const;
  Status RequireToken(const ir::Type& type, std::string_view label) const;
  // A 0-dimensional tensor of `classes`.
  Status RequireScalar(size_t i, uint32_t classes, std::string_view label) const;

  // ---- Attributes ----
  const ir::Attribute* Attr(std::string_view name) const { return ir::FindAttribute(attributes_, name); }
  // An integer attribute; absent: `default_value`, or an error when there is none.
  StatusOr<int64_t> Int(std::string_view name, std::optional<int64_t> default_value = std::nullopt) const;
  // A boolean (true/false, i1 integer, or a unit attribute meaning true); absent: default.
  StatusOr<bool> Bool(std::string_view name, bool default_value) const;
  // A float attribute (f32 epsilon, tolerances); absent: default or error.
  StatusOr<double> Float(std::string_view name, std::optional<double> default_value = std::nullopt) const;
  // A 1-D list of integers: array<i64: ...>, [1, 2], dense<...> : tensor<Nxi64>.
  StatusOr<std::vector<int64_t>> Ints(std::string_view name,
                                      std::optional<std::vector<int64_t>> default_value = std::nullopt) const;
  StatusOr<std::optional<std::vector<int64_t>>> OptionalInts(std::string_view name) const;
  // A list of booleans (array<i1: ...>, dense<[true, false]>).
  StatusOr<std::optional<std::vector<bool>>> OptionalBools(std::string_view name) const;
  // A 2-D integer attribute: dense<...> : tensor<RxCxi64>, or [[a, b], ...]; flat lists of even
  // size are read as pairs when `flat_as_pairs`. nullopt when absent.
  StatusOr<std::optional<IntMatrix>> Matrix(std::string_view name, bool flat_as_pairs) const;
  // An enum (#stablehlo<kind VALUE>, or a plain string) whose value must be one of `allowed`.
  StatusOr<std::string> Enum(std::string_view name, std::string_view kind,
                             std::span<const std::string_view> allowed,
                             std::optional<std::string_view> default_value = std::nullopt) const;
  // A string attribute; absent: default or error.
  StatusOr<std::string> String(std::string_view name,
                               std::optional<std::string_view> default_value = std::nullopt) const;
  // A structured attribute (dimension numbers, ...). nullptr when absent and not `required`.
  template <typename T>
  StatusOr<const T*> Struct(std::string_view name, std::string_view description, bool required) const {
    const ir::Attribute* attr = Attr(name);
    if (attr == nullptr) {
      if (!required) return static_cast<const T*>(nullptr);
      return MissingAttribute(name, description);
    }
    const T* value = attr->as<T>();
    if (value == nullptr) return WrongAttributeKind(name, description, *attr);
    return value;
  }
  // precision_config: absent, empty, or `count` precision enums.
  Status CheckPrecisionConfig(std::string_view label) const;

  Status MissingAttribute(std::string_view name, std::string_view description) const;
  Status WrongAttributeKind(std::string_view name, std::string_view description,
                            const ir::Attribute& found) const;

  // ---- Dimension lists ----
  // Every value in [low, high): "<what> must be in range (<label>)".
  Status CheckInRange(std::span<const int64_t> values, int64_t low, int64_t high, std::string_view what,
                      std::string_view label) const;
  Status CheckUnique(std::span<const int64_t> values, std::string_view what, std::string_view label) const;
  Status CheckSorted(std::span<const int64_t> values, std::string_view what, std::string_view label) const;
  Status CheckSize(std::span<const int64_t> values, int64_t size, std::string_view what,
                   std::string_view label) const;

  // ---- Regions ----
  // Region `index` must have one block ending in stablehlo.return. `what` names it ("body").
  StatusOr<RegionSignature> Region(size_t index, std::string_view what) const;
  // A region's signature must equal the expected one: "<what> must have type (<label>)".
  Status CheckRegionType(const RegionSignature& signature, std::span<const ir::Type> arguments,
                         std::span<const ir::Type> results, std::string_view what,
                         std::string_view label) const;
  // A reduction body: 2N scalar arguments and N scalar results of types E0..EN-1 (repeated)
  // with is_promotable(element_type(inputs[k]), Ek). Returns the Ek (as scalar tensor types).
  StatusOr<std::vector<ir::Type>> CheckReducerType(const RegionSignature& signature,
                                                   std::span<const ir::Type> inputs,
                                                   std::string_view what, std::string_view label) const;

 private:
  ir::OpCode code_;
  std::span<const ir::Type> operands_;
  std::span<const ir::Type> results_;
  const std::vector<ir::NamedAttribute>& attributes_;
  std::span<const ir::Region* const> regions_;
  const ir::Operation* op_;
  std::string prefix_;
};

}  // namespace vkhlo::verify
