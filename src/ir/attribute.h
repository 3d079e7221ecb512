// Attributes: the compile-time data of ops and functions.
//
// One value type, Attribute, holds any kind: unit, bool, integer (with its type), float (bit
// pattern with its type), string, symbol reference (@f), type, array, dense array
// (array<i64: 1, 2>), dense elements (dense<...> : tensor<...>, a Literal), dictionary, dialect
// enum (#stablehlo<comparison_direction LT>), the structured StableHLO attributes
// (dot/conv/gather/scatter dimension numbers, channel handle, output operand alias, result
// accuracy, dot algorithm), and opaque text for attributes of other dialects that vkhlo keeps but
// does not interpret (#sdy.sharding<...>). Attributes are immutable and cheap to copy.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "ir/literal.h"
#include "ir/type.h"

namespace vkhlo::ir {

class Attribute;
using NamedAttribute = std::pair<std::string, Attribute>;

struct DotDimensionNumbers {
  std::vector<int64_t> lhs_batching_dimensions, rhs_batching_dimensions;
  std::vector<int64_t> lhs_contracting_dimensions, rhs_contracting_dimensions;
  bool operator==(const DotDimensionNumbers&) const = default;
};

// #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]> (raw dimension indices).
struct ConvDimensionNumbers {
  int64_t input_batch_dimension = 0, input_feature_dimension = 0;
  std::vector<int64_t> input_spatial_dimensions;
  int64_t kernel_input_feature_dimension = 0, kernel_output_feature_dimension = 0;
  std::vector<int64_t> kernel_spatial_dimensions;
  int64_t output_batch_dimension = 0, output_feature_dimension = 0;
  std::vector<int64_t> output_spatial_dimensions;
  bool operator==(const ConvDimensionNumbers&) const = default;
};

struct GatherDimensionNumbers {
  std::vector<int64_t> offset_dims, collapsed_slice_dims, operand_batching_dims,
      start_indices_batching_dims, start_index_map;
  int64_t index_vector_dim = 0;
  bool operator==(const GatherDimensionNumbers&) const = default;
};

struct ScatterDimensionNumbers {
  std::vector<int64_t> update_window_dims, inserted_window_dims, input_batching_dims,
      scatter_indices_batching_dims, scatter_dims_to_operand_dims;
  int64_t index_vector_dim = 0;
  bool operator==(const ScatterDimensionNumbers&) const = default;
};

struct ChannelHandle {
  int64_t handle = 0;
  int64_t type = 0;
  bool operator==(const ChannelHandle&) const = default;
};

struct OutputOperandAlias {
  std::vector<int64_t> output_tuple_indices;
  int64_t operand_index = 0;
  std::vector<int64_t> operand_tuple_indices;
  bool operator==(const OutputOperandAlias&) const = default;
};

struct ResultAccuracy {
  double atol = 0, rtol = 0;
  int64_t ulps = 0;
  std::string mode = "DEFAULT";  // DEFAULT | HIGHEST | TOLERANCE
  bool operator==(const ResultAccuracy&) const = default;
};

struct DotAlgorithm {
  Type lhs_precision_type, rhs_precision_type, accumulation_type;  // scalar element types
  int64_t lhs_component_count = 1, rhs_component_count = 1, num_primitive_operations = 1;
  bool allow_imprecise_accumulation = false;
  bool operator==(const DotAlgorithm&) const = default;
};

// `#dialect<enum_kind VALUE>`, e.g. {"stablehlo", "comparison_direction", "LT"}.
struct EnumValue {
  std::string dialect;
  std::string kind;
  std::string value;
  bool operator==(const EnumValue&) const = default;
};

struct UnitValue {
  bool operator==(const UnitValue&) const = default;
};
struct IntegerValue {
  uint64_t bits = 0;                   // two's complement, in `type`'s width
  ElementType type = ElementType::kS64;  // i1 .. ui64 ("index" reads as i64)
  bool operator==(const IntegerValue&) const = default;
};
struct FloatValue {
  uint64_t bits = 0;  // the bit pattern in `type`
  ElementType type = ElementType::kF32;
  bool operator==(const FloatValue&) const = default;
};
struct SymbolRef {
  std::string name;  // without '@'
  bool operator==(const SymbolRef&) const = default;
};
struct OpaqueValue {
  std::string text;  // the attribute exactly as written, e.g. "#sdy.sharding<@mesh, [{}]>"
  bool operator==(const OpaqueValue&) const = default;
};

class Attribute {
 public:
  // Dense arrays (array<i64: ...>) and dense elements (dense<...>) are both Literals; a dense
  // array's literal has rank 1.
  struct DenseArray {
    Literal values;
    bool operator==(const DenseArray& o) const { return values == o.values; }
  };
  struct DenseElements {
    Literal values;
    bool operator==(const DenseElements& o) const { return values == o.values; }
  };
  using Array = std::vector<Attribute>;
  using Dictionary = std::vector<NamedAttribute>;

  using Storage = std::variant<UnitValue, bool, IntegerValue, FloatValue, std::string, SymbolRef,
                               Type, Array, DenseArray, DenseElements, Dictionary, EnumValue,
                               DotDimensionNumbers, ConvDimensionNumbers, GatherDimensionNumbers,
                               ScatterDimensionNumbers, ChannelHandle, OutputOperandAlias,
                               ResultAccuracy, DotAlgorithm, OpaqueValue>;

  Attribute();  // unit
  template <typename T, typename = std::enable_if_t<std::is_constructible_v<Storage, T&&> &&
                                                    !std::is_same_v<std::decay_t<T>, Attribute>>>
  Attribute(T&& value)  // NOLINT(implicit)
      : storage_(std::make_shared<const Storage>(std::forward<T>(value))) {}

  static Attribute Unit() { return Attribute(); }
  static Attribute Bool(bool value) { return Attribute(value); }
  static Attribute Int(int64_t value, ElementType type = ElementType::kS64);
  static Attribute Float(double value, ElementType type = ElementType::kF32);
  static Attribute String(std::string value) { return Attribute(std::move(value)); }
  static Attribute Symbol(std::string name) { return Attribute(SymbolRef{std::move(name)}); }
  static Attribute I64Array(const std::vector<int64_t>& values);   // array<i64: ...>
  static Attribute BoolArray(const std::vector<bool>& values);     // array<i1: ...>
  static Attribute Dense(Literal values) { return Attribute(DenseElements{std::move(values)}); }
  static Attribute Enum(std::string dialect, std::string kind, std::string value) {
    return Attribute(EnumValue{std::move(dialect), std::move(kind), std::move(value)});
  }

  const Storage& storage() const { return *storage_; }
  template <typename T>
  bool is() const { return std::holds_alternative<T>(*storage_); }
  template <typename T>
  const T* as() const { return std::get_if<T>(storage_.get()); }

  bool is_unit() const { return is<UnitValue>(); }
  // Integer value (sign-extended per its type); also accepts bools. nullopt otherwise.
  std::optional<int64_t> AsInt() const;
  std::optional<double> AsFloat() const;
  std::optional<bool> AsBool() const;
  const std::string* AsString() const { return as<std::string>(); }
  // A dense array, an array of integers, or dense elements of integers, as int64s.
  std::optional<std::vector<int64_t>> AsI64Vector() const;
  std::optional<std::vector<bool>> AsBoolVector() const;
  const Literal* AsDenseElements() const;
  // The enum's value when the attribute is `#<dialect><kind VALUE>`; also accepts a plain
  // string or enum of that value. nullopt otherwise.
  std::optional<std::string> AsEnum(std::string_view kind) const;

  // MLIR text of the attribute (parseable by the frontend): "1 : i64", "array<i64: 1, 2>",
  // "dense<[1, 2]> : tensor<2xi32>", "#stablehlo<comparison_direction LT>", ...
  std::string ToString() const;

  bool operator==(const Attribute& other) const;
  bool operator!=(const Attribute& other) const { return !(*this == other); }

 private:
  std::shared_ptr<const Storage> storage_;
};

// Lookup in a list of named attributes (nullptr when absent).
const Attribute* FindAttribute(const std::vector<NamedAttribute>& attributes, std::string_view name);

std::string DictionaryToString(const std::vector<NamedAttribute>& attributes);

}  // namespace vkhlo::ir
