// The configuration records of XLA operations (xla_data.proto's messages and enums): dimension
// numbers of dot, convolution, gather and scatter, padding, precision, comparison directions,
// FFT types, RNG algorithms, replica groups, channel handles.
//
// They keep the protobuf accessors XLA code uses (`dnums.add_lhs_contracting_dimensions(1)`,
// `dnums.lhs_contracting_dimensions(0)`, `set_index_vector_dim(2)`) so that code written
// against XLA compiles unchanged; the fields are plain vectors and integers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

// A repeated int64 field `name` with protobuf's accessors.
#define VKHLO_REPEATED_INT64_FIELD(name)                                                   \
 public:                                                                                   \
  const std::vector<int64_t>& name() const { return name##_; }                             \
  int64_t name(int index) const { return name##_[static_cast<size_t>(index)]; }            \
  int name##_size() const { return static_cast<int>(name##_.size()); }                     \
  void add_##name(int64_t value) { name##_.push_back(value); }                             \
  void set_##name(int index, int64_t value) { name##_[static_cast<size_t>(index)] = value; } \
  std::vector<int64_t>* mutable_##name() { return &name##_; }                              \
  void clear_##name() { name##_.clear(); }                                                 \
                                                                                           \
 private:                                                                                  \
  std::vector<int64_t> name##_;

// A singular int64 field `name` with protobuf's accessors.
#define VKHLO_INT64_FIELD(name)                         \
 public:                                                \
  int64_t name() const { return name##_; }              \
  void set_##name(int64_t value) { name##_ = value; }   \
                                                        \
 private:                                               \
  int64_t name##_ = 0;

namespace vkhlo {

// Window padding shorthand (Conv, ReduceWindow, SelectAndScatter): kValid is no padding; kSame
// pads so that the output has ceil(input / stride) elements in each dimension.
enum class Padding { kSame, kValid };

class DotDimensionNumbers {
  VKHLO_REPEATED_INT64_FIELD(lhs_contracting_dimensions)
  VKHLO_REPEATED_INT64_FIELD(rhs_contracting_dimensions)
  VKHLO_REPEATED_INT64_FIELD(lhs_batch_dimensions)
  VKHLO_REPEATED_INT64_FIELD(rhs_batch_dimensions)
};

class ConvolutionDimensionNumbers {
  VKHLO_INT64_FIELD(input_batch_dimension)
  VKHLO_INT64_FIELD(input_feature_dimension)
  VKHLO_REPEATED_INT64_FIELD(input_spatial_dimensions)
  VKHLO_INT64_FIELD(kernel_input_feature_dimension)
  VKHLO_INT64_FIELD(kernel_output_feature_dimension)
  VKHLO_REPEATED_INT64_FIELD(kernel_spatial_dimensions)
  VKHLO_INT64_FIELD(output_batch_dimension)
  VKHLO_INT64_FIELD(output_feature_dimension)
  VKHLO_REPEATED_INT64_FIELD(output_spatial_dimensions)
};

class GatherDimensionNumbers {
  VKHLO_REPEATED_INT64_FIELD(offset_dims)
  VKHLO_REPEATED_INT64_FIELD(collapsed_slice_dims)
  VKHLO_REPEATED_INT64_FIELD(start_index_map)
  VKHLO_INT64_FIELD(index_vector_dim)
  VKHLO_REPEATED_INT64_FIELD(operand_batching_dims)
  VKHLO_REPEATED_INT64_FIELD(start_indices_batching_dims)
};

class ScatterDimensionNumbers {
  VKHLO_REPEATED_INT64_FIELD(update_window_dims)
  VKHLO_REPEATED_INT64_FIELD(inserted_window_dims)
  VKHLO_REPEATED_INT64_FIELD(scatter_dims_to_operand_dims)
  VKHLO_INT64_FIELD(index_vector_dim)
  VKHLO_REPEATED_INT64_FIELD(input_batching_dims)
  VKHLO_REPEATED_INT64_FIELD(scatter_indices_batching_dims)
};

// Per dimension of Pad: edge padding (may be negative) and interior padding (>= 0).
class PaddingConfig {
 public:
  class PaddingConfigDimension {
    VKHLO_INT64_FIELD(edge_padding_low)
    VKHLO_INT64_FIELD(edge_padding_high)
    VKHLO_INT64_FIELD(interior_padding)
  };
  const std::vector<PaddingConfigDimension>& dimensions() const { return dimensions_; }
  const PaddingConfigDimension& dimensions(int index) const { return dimensions_[static_cast<size_t>(index)]; }
  int dimensions_size() const { return static_cast<int>(dimensions_.size()); }
  PaddingConfigDimension* add_dimensions() { return &dimensions_.emplace_back(); }
  PaddingConfigDimension* mutable_dimensions(int index) { return &dimensions_[static_cast<size_t>(index)]; }

 private:
  std::vector<PaddingConfigDimension> dimensions_;
};

// Operand precisions of Dot / Conv (StableHLO's precision_config).
class PrecisionConfig {
 public:
  enum Precision { DEFAULT = 0, HIGH = 1, HIGHEST = 2 };
  const std::vector<Precision>& operand_precision() const { return operand_precision_; }
  Precision operand_precision(int index) const { return operand_precision_[static_cast<size_t>(index)]; }
  int operand_precision_size() const { return static_cast<int>(operand_precision_.size()); }
  void add_operand_precision(Precision precision) { operand_precision_.push_back(precision); }

 private:
  std::vector<Precision> operand_precision_;
};

enum class ComparisonDirection { kEq, kNe, kGe, kGt, kLe, kLt };

// How Compare orders values: kDefault follows the element type (FLOAT, SIGNED or UNSIGNED);
// kTotalOrder orders floats -NaN < -Inf < ... < -0 < +0 < ... < +Inf < +NaN.
enum class ComparisonType { kDefault, kTotalOrder };

enum FftType { FFT = 0, IFFT = 1, RFFT = 2, IRFFT = 3 };

enum RandomAlgorithm { RNG_DEFAULT = 0, RNG_THREE_FRY = 1, RNG_PHILOX = 2 };

class TriangularSolveOptions {
 public:
  enum Transpose { TRANSPOSE_INVALID = 0, NO_TRANSPOSE = 1, TRANSPOSE = 2, ADJOINT = 3 };
};

class ReplicaGroup {
  VKHLO_REPEATED_INT64_FIELD(replica_ids)
};

class ChannelHandle {
 public:
  enum ChannelType { CHANNEL_TYPE_INVALID = 0, DEVICE_TO_DEVICE = 1, DEVICE_TO_HOST = 2, HOST_TO_DEVICE = 3 };
  ChannelType type() const { return type_; }
  void set_type(ChannelType type) { type_ = type; }
  VKHLO_INT64_FIELD(handle)

 private:
  ChannelType type_ = CHANNEL_TYPE_INVALID;
};

}  // namespace vkhlo

#undef VKHLO_REPEATED_INT64_FIELD
#undef VKHLO_INT64_FIELD
