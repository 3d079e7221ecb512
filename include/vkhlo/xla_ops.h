// The operations of XlaBuilder (xla_operation_semantics.md), as free functions with XLA's
// names and arguments. Each becomes one or a few StableHLO ops; see docs/design.md ("C++
// builder") for the mapping. Include vkhlo/xla_builder.h rather than this file.
//
// Lists are std::vector (braced lists work: `Reduce(x, zero, add, {0})`). Ops producing several
// values (variadic Reduce/Sort/While, BatchNormTraining, RngBitGenerator, ...) return one
// tuple-shaped XlaOp, as XLA does; take it apart with GetTupleElement.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "vkhlo/literal.h"
#include "vkhlo/shape.h"
#include "vkhlo/xla_builder.h"
#include "vkhlo/xla_computation.h"
#include "vkhlo/xla_data.h"

namespace vkhlo {

// ---------------------------------------------------------------------------------------------
// Parameters and constants

// Parameter `parameter_number` of the computation (numbers must end up 0..n-1, each used once).
XlaOp Parameter(XlaBuilder* builder, int64_t parameter_number, const Shape& shape, const std::string& name);

// A constant holding `literal` (any layout; tuples become a tuple of constants).
XlaOp ConstantLiteral(XlaBuilder* builder, const Literal& literal);

template <typename T>
XlaOp ConstantR0(XlaBuilder* builder, T value) {
  return ConstantLiteral(builder, LiteralUtil::CreateR0<T>(value));
}
template <typename T>
XlaOp ConstantR1(XlaBuilder* builder, std::initializer_list<T> values) {
  return ConstantLiteral(builder, LiteralUtil::CreateR1<T>(values));
}
template <typename T>
XlaOp ConstantR1(XlaBuilder* builder, const std::vector<T>& values) {
  return ConstantLiteral(builder, LiteralUtil::CreateR1<T>(values));
}
template <typename T>
XlaOp ConstantR1(XlaBuilder* builder, std::span<const T> values) {
  return ConstantLiteral(builder, LiteralUtil::CreateR1<T>(values));
}
// `length` copies of `value`.
template <typename T>
XlaOp ConstantR1(XlaBuilder* builder, int64_t length, T value) {
  return ConstantLiteral(builder, LiteralUtil::CreateR1<T>(std::vector<T>(static_cast<size_t>(length < 0 ? 0 : length), value)));
}
template <typename T>
XlaOp ConstantR2(XlaBuilder* builder, std::initializer_list<std::initializer_list<T>> values) {
  return ConstantLiteral(builder, LiteralUtil::CreateR2<T>(values));
}

// Scalars 0, 1, lowest and highest of `type` (LiteralUtil::Zero, ...).
XlaOp Zero(XlaBuilder* builder, PrimitiveType type);
XlaOp One(XlaBuilder* builder, PrimitiveType type);
XlaOp MinValue(XlaBuilder* builder, PrimitiveType type);
XlaOp MaxValue(XlaBuilder* builder, PrimitiveType type);

// Values 0, 1, 2, ... along `iota_dimension` of `shape`.
XlaOp Iota(XlaBuilder* builder, const Shape& shape, int64_t iota_dimension);
// A vector 0, 1, ..., size-1 of `type`.
XlaOp Iota(XlaBuilder* builder, PrimitiveType type, int64_t size);

// ---------------------------------------------------------------------------------------------
// Element-wise binary ops, with XLA's implicit broadcasting (xla_overview.md, "Broadcasting
// semantics"): without broadcast_dimensions, operands of equal rank broadcast along degenerate
// (size 1) dimensions and a scalar broadcasts to the other operand; with them, the lower-rank
// operand's dimension i is matched to dimension broadcast_dimensions[i] of the higher-rank
// operand (strictly increasing), then degenerate dimensions broadcast.

XlaOp Add(XlaOp lhs, XlaOp rhs, const std::vector<int64_t>& broadcast_dimensions = {});
XlaOp Sub(XlaOp lhs, XlaOp rhs, const std::vector<int64_t>& broadcast_dimensions = {});
XlaOp Mul(XlaOp lhs, XlaOp rhs, const std::vector<int64_t>& broadcast_dimensions = {});
XlaOp Div(XlaOp lhs, XlaOp rhs, const std::vector<int64_t>& broadcast_dimensions = {});
XlaOp Rem(XlaOp lhs, XlaOp rhs, const std::vector<int64_t>& broadcast_dimensions = {});
XlaOp Max(XlaOp lhs, XlaOp rhs, const std::vector<int64_t>& broadcast_dimensions = {});
XlaOp Min(XlaOp lhs, XlaOp rhs, const std::vector<int64_t>& broadcast_dimensions = {});
XlaOp Pow(XlaOp lhs, XlaOp rhs, const std::vector<int64_t>& broadcast_dimensions = {});
XlaOp Atan2(XlaOp y, XlaOp x, const std::vector<int64_t>& broadcast_dimensions = {});
XlaOp And(XlaOp lhs, XlaOp rhs, const std::vector<int64_t>& broadcast_dimensions = {});
XlaOp Or(XlaOp lhs, XlaOp rhs, const std::vector<int64_t>& broadcast_dimensions = {});
XlaOp Xor(XlaOp lhs, XlaOp rhs, const std::vector<int64_t>& broadcast_dimensions = {});
XlaOp ShiftLeft(XlaOp lhs, XlaOp rhs, const std::vector<int64_t>& broadcast_dimensions = {});
XlaOp ShiftRightArithmetic(XlaOp lhs, XlaOp rhs, const std::vector<int64_t>& broadcast_dimensions = {});
XlaOp ShiftRightLogical(XlaOp lhs, XlaOp rhs, const std::vector<int64_t>& broadcast_dimensions = {});
// A complex number from real and imaginary parts (F32 -> C64, F64 -> C128).
XlaOp Complex(XlaOp real, XlaOp imag, const std::vector<int64_t>& broadcast_dimensions = {});

// Comparisons: PRED results of the broadcast shape. The *TotalOrder forms order floats totally.
XlaOp Eq(XlaOp lhs, XlaOp rhs, const std::vector<int64_t>& broadcast_dimensions = {});
XlaOp Ne(XlaOp lhs, XlaOp rhs, const std::vector<int64_t>& broadcast_dimensions = {});
XlaOp Ge(XlaOp lhs, XlaOp rhs, const std::vector<int64_t>& broadcast_dimensions = {});
XlaOp Gt(XlaOp lhs, XlaOp rhs, const std::vector<int64_t>& broadcast_dimensions = {});
XlaOp Le(XlaOp lhs, XlaOp rhs, const std::vector<int64_t>& broadcast_dimensions = {});
XlaOp Lt(XlaOp lhs, XlaOp rhs, const std::vector<int64_t>& broadcast_dimensions = {});
XlaOp EqTotalOrder(XlaOp lhs, XlaOp rhs, const std::vector<int64_t>& broadcast_dimensions = {});
XlaOp NeTotalOrder(XlaOp lhs, XlaOp rhs, const std::vector<int64_t>& broadcast_dimensions = {});
XlaOp GeTotalOrder(XlaOp lhs, XlaOp rhs, const std::vector<int64_t>& broadcast_dimensions = {});
XlaOp GtTotalOrder(XlaOp lhs, XlaOp rhs, const std::vector<int64_t>& broadcast_dimensions = {});
XlaOp LeTotalOrder(XlaOp lhs, XlaOp rhs, const std::vector<int64_t>& broadcast_dimensions = {});
XlaOp LtTotalOrder(XlaOp lhs, XlaOp rhs, const std::vector<int64_t>& broadcast_dimensions = {});
XlaOp Compare(XlaOp lhs, XlaOp rhs, const std::vector<int64_t>& broadcast_dimensions, ComparisonDirection direction,
              ComparisonType type = ComparisonType::kDefault);
XlaOp Compare(XlaOp lhs, XlaOp rhs, ComparisonDirection direction);

// ---------------------------------------------------------------------------------------------
// Element-wise unary ops

XlaOp Abs(XlaOp operand);
XlaOp Neg(XlaOp operand);
XlaOp Sign(XlaOp operand);
XlaOp Exp(XlaOp operand);
XlaOp Expm1(XlaOp operand);
XlaOp Log(XlaOp operand);
XlaOp Log1p(XlaOp operand);
XlaOp Logistic(XlaOp operand);
XlaOp Sqrt(XlaOp operand);
XlaOp Rsqrt(XlaOp operand);
XlaOp Cbrt(XlaOp operand);
XlaOp Sin(XlaOp operand);
XlaOp Cos(XlaOp operand);
XlaOp Tan(XlaOp operand);
XlaOp Tanh(XlaOp operand);
XlaOp Floor(XlaOp operand);
XlaOp Ceil(XlaOp operand);
XlaOp Round(XlaOp operand);  // ties away from zero
XlaOp RoundNearestEven(XlaOp operand);
XlaOp Not(XlaOp operand);  // logical not for PRED, bitwise for integers
XlaOp Clz(XlaOp operand);
XlaOp PopulationCount(XlaOp operand);
XlaOp IsFinite(XlaOp operand);
XlaOp Real(XlaOp operand);
XlaOp Imag(XlaOp operand);
XlaOp Conj(XlaOp operand);
XlaOp Erf(XlaOp operand);         // chlo.erf
XlaOp Square(XlaOp operand);      // operand * operand
XlaOp Reciprocal(XlaOp operand);  // 1 / operand

// `pred` ? on_true : on_false, element-wise (pred may be a scalar).
XlaOp Select(XlaOp pred, XlaOp on_true, XlaOp on_false);
// min(max(operand, min), max); min and max may be scalars.
XlaOp Clamp(XlaOp min, XlaOp operand, XlaOp max);
XlaOp ConvertElementType(XlaOp operand, PrimitiveType new_element_type);
// Reinterprets the bits; to a narrower type a minor dimension of the width ratio is added, to a
// wider one the minor dimension (of that size) is dropped.
XlaOp BitcastConvertType(XlaOp operand, PrimitiveType new_element_type);
XlaOp ReducePrecision(XlaOp operand, int exponent_bits, int mantissa_bits);

// `computation` (scalar parameters, one per operand) applied element-wise. `dimensions` must be
// all the operands' dimensions, in order; static_operands are not supported (XLA dropped them).
XlaOp Map(XlaBuilder* builder, const std::vector<XlaOp>& operands, const XlaComputation& computation,
          const std::vector<int64_t>& dimensions, const std::vector<XlaOp>& static_operands = {});

// ---------------------------------------------------------------------------------------------
// Shapes and data movement

// New major dimensions of sizes `broadcast_sizes` in front of the operand's.
XlaOp Broadcast(XlaOp operand, const std::vector<int64_t>& broadcast_sizes);
// Operand dimension i becomes dimension broadcast_dimensions[i] of a result of `out_dim_size`.
XlaOp BroadcastInDim(XlaOp operand, const std::vector<int64_t>& out_dim_size,
                     const std::vector<int64_t>& broadcast_dimensions);
// Collapses in the order `dimensions` (a permutation, most major first), then refines to
// `new_sizes`.
XlaOp Reshape(XlaOp operand, const std::vector<int64_t>& dimensions, const std::vector<int64_t>& new_sizes);
XlaOp Reshape(XlaOp operand, const std::vector<int64_t>& new_sizes);
XlaOp Reshape(const Shape& shape, XlaOp operand);
// Merges the consecutive, in-order `dimensions` into one.
XlaOp Collapse(XlaOp operand, const std::vector<int64_t>& dimensions);
XlaOp Transpose(XlaOp operand, const std::vector<int64_t>& permutation);
XlaOp Rev(XlaOp operand, const std::vector<int64_t>& dimensions);
XlaOp Slice(XlaOp operand, const std::vector<int64_t>& start_indices, const std::vector<int64_t>& limit_indices,
            const std::vector<int64_t>& strides);
XlaOp SliceInDim(XlaOp operand, int64_t start_index, int64_t limit_index, int64_t stride, int64_t dimno);
// Start indices are scalar integer XlaOps (clamped into range as the spec says).
XlaOp DynamicSlice(XlaOp operand, const std::vector<XlaOp>& start_indices, const std::vector<int64_t>& slice_sizes);
XlaOp DynamicUpdateSlice(XlaOp operand, XlaOp update, const std::vector<XlaOp>& start_indices);
XlaOp ConcatInDim(XlaBuilder* builder, const std::vector<XlaOp>& operands, int64_t dimension);
XlaOp Pad(XlaOp operand, XlaOp padding_value, const PaddingConfig& padding_config);
XlaOp PadInDim(XlaOp operand, XlaOp padding_value, int64_t dimno, int64_t pad_lo, int64_t pad_hi);
XlaOp Gather(XlaOp input, XlaOp start_indices, const GatherDimensionNumbers& dimension_numbers,
             const std::vector<int64_t>& slice_sizes, bool indices_are_sorted = false);
XlaOp Scatter(XlaOp input, XlaOp scatter_indices, XlaOp updates, const XlaComputation& update_computation,
              const ScatterDimensionNumbers& dimension_numbers, bool indices_are_sorted = false,
              bool unique_indices = false);
XlaOp Scatter(const std::vector<XlaOp>& inputs, XlaOp scatter_indices, const std::vector<XlaOp>& updates,
              const XlaComputation& update_computation, const ScatterDimensionNumbers& dimension_numbers,
              bool indices_are_sorted = false, bool unique_indices = false);
XlaOp Tuple(XlaBuilder* builder, const std::vector<XlaOp>& elements);
XlaOp GetTupleElement(XlaOp tuple_data, int64_t index);
// An S32 scalar: the size of `dimension`.
XlaOp GetDimensionSize(XlaOp operand, int64_t dimension);

// ---------------------------------------------------------------------------------------------
// Reductions, sorting, control flow

XlaOp Reduce(XlaOp operand, XlaOp init_value, const XlaComputation& computation,
             const std::vector<int64_t>& dimensions_to_reduce);
XlaOp Reduce(XlaBuilder* builder, const std::vector<XlaOp>& operands, const std::vector<XlaOp>& init_values,
             const XlaComputation& computation, const std::vector<int64_t>& dimensions_to_reduce);
XlaOp ReduceAll(XlaOp operand, XlaOp init_value, const XlaComputation& computation);
XlaOp ReduceWindow(XlaOp operand, XlaOp init_value, const XlaComputation& computation,
                   const std::vector<int64_t>& window_dimensions, const std::vector<int64_t>& window_strides,
                   Padding padding);
XlaOp ReduceWindow(const std::vector<XlaOp>& operands, const std::vector<XlaOp>& init_values,
                   const XlaComputation& computation, const std::vector<int64_t>& window_dimensions,
                   const std::vector<int64_t>& window_strides, Padding padding);
XlaOp ReduceWindowWithGeneralPadding(XlaOp operand, XlaOp init_value, const XlaComputation& computation,
                                     const std::vector<int64_t>& window_dimensions,
                                     const std::vector<int64_t>& window_strides,
                                     const std::vector<int64_t>& base_dilations,
                                     const std::vector<int64_t>& window_dilations,
                                     const std::vector<std::pair<int64_t, int64_t>>& padding);
XlaOp SelectAndScatter(XlaOp operand, const XlaComputation& select, const std::vector<int64_t>& window_dimensions,
                       const std::vector<int64_t>& window_strides, Padding padding, XlaOp source, XlaOp init_value,
                       const XlaComputation& scatter);
XlaOp SelectAndScatterWithGeneralPadding(XlaOp operand, const XlaComputation& select,
                                         const std::vector<int64_t>& window_dimensions,
                                         const std::vector<int64_t>& window_strides,
                                         const std::vector<std::pair<int64_t, int64_t>>& padding, XlaOp source,
                                         XlaOp init_value, const XlaComputation& scatter);
// Sorts along `dimension` (-1: the last) with `comparator` (2 scalar parameters per operand).
XlaOp Sort(const std::vector<XlaOp>& operands, const XlaComputation& comparator, int64_t dimension = -1,
           bool is_stable = false);
XlaOp While(const XlaComputation& condition, const XlaComputation& body, XlaOp init);
XlaOp Conditional(XlaOp predicate, XlaOp true_operand, const XlaComputation& true_computation, XlaOp false_operand,
                  const XlaComputation& false_computation);
// Runs branch_computations[branch_index] (an S32 scalar; out of range: the last branch).
XlaOp Conditional(XlaOp branch_index, const std::vector<const XlaComputation*>& branch_computations,
                  const std::vector<XlaOp>& branch_operands);
XlaOp Call(XlaBuilder* builder, const XlaComputation& computation, const std::vector<XlaOp>& operands);
XlaOp OptimizationBarrier(XlaOp operand);

// ---------------------------------------------------------------------------------------------
// Linear algebra and convolution

// Vector/matrix products (ranks 1 and 2): contracts lhs's last dimension with rhs's first.
XlaOp Dot(XlaOp lhs, XlaOp rhs, const PrecisionConfig* precision_config = nullptr,
          std::optional<PrimitiveType> preferred_element_type = std::nullopt);
XlaOp DotGeneral(XlaOp lhs, XlaOp rhs, const DotDimensionNumbers& dimension_numbers,
                 const PrecisionConfig* precision_config = nullptr,
                 std::optional<PrimitiveType> preferred_element_type = std::nullopt);

// Input [batch, feature, spatial...], kernel [output feature, input feature, spatial...],
// output [batch, feature, spatial...].
ConvolutionDimensionNumbers CreateDefaultConvDimensionNumbers(int num_spatial_dims = 2);
// The (low, high) padding that `padding` means for these input and window sizes and strides.
std::vector<std::pair<int64_t, int64_t>> MakePadding(const std::vector<int64_t>& input_dimensions,
                                                     const std::vector<int64_t>& window_dimensions,
                                                     const std::vector<int64_t>& window_strides, Padding padding);

XlaOp Conv(XlaOp lhs, XlaOp rhs, const std::vector<int64_t>& window_strides, Padding padding,
           int64_t feature_group_count = 1, int64_t batch_group_count = 1,
           const PrecisionConfig* precision_config = nullptr,
           std::optional<PrimitiveType> preferred_element_type = std::nullopt);
XlaOp ConvWithGeneralPadding(XlaOp lhs, XlaOp rhs, const std::vector<int64_t>& window_strides,
                             const std::vector<std::pair<int64_t, int64_t>>& padding, int64_t feature_group_count = 1,
                             int64_t batch_group_count = 1, const PrecisionConfig* precision_config = nullptr,
                             std::optional<PrimitiveType> preferred_element_type = std::nullopt);
XlaOp ConvWithGeneralDimensions(XlaOp lhs, XlaOp rhs, const std::vector<int64_t>& window_strides, Padding padding,
                                const ConvolutionDimensionNumbers& dimension_numbers, int64_t feature_group_count = 1,
                                int64_t batch_group_count = 1, const PrecisionConfig* precision_config = nullptr,
                                std::optional<PrimitiveType> preferred_element_type = std::nullopt);
XlaOp ConvGeneral(XlaOp lhs, XlaOp rhs, const std::vector<int64_t>& window_strides,
                  const std::vector<std::pair<int64_t, int64_t>>& padding,
                  const ConvolutionDimensionNumbers& dimension_numbers, int64_t feature_group_count = 1,
                  int64_t batch_group_count = 1, const PrecisionConfig* precision_config = nullptr,
                  std::optional<PrimitiveType> preferred_element_type = std::nullopt);
XlaOp ConvGeneralDilated(XlaOp lhs, XlaOp rhs, const std::vector<int64_t>& window_strides,
                         const std::vector<std::pair<int64_t, int64_t>>& padding,
                         const std::vector<int64_t>& lhs_dilation, const std::vector<int64_t>& rhs_dilation,
                         const ConvolutionDimensionNumbers& dimension_numbers, int64_t feature_group_count = 1,
                         int64_t batch_group_count = 1, const PrecisionConfig* precision_config = nullptr,
                         std::optional<PrimitiveType> preferred_element_type = std::nullopt);

XlaOp Fft(XlaOp operand, FftType fft_type, const std::vector<int64_t>& fft_length);
XlaOp TriangularSolve(XlaOp a, XlaOp b, bool left_side, bool lower, bool unit_diagonal,
                      TriangularSolveOptions::Transpose transpose_a);
XlaOp Cholesky(XlaOp a, bool lower);
// Tuple (output, batch_mean, batch_var).
XlaOp BatchNormTraining(XlaOp operand, XlaOp scale, XlaOp offset, float epsilon, int64_t feature_index);
XlaOp BatchNormInference(XlaOp operand, XlaOp scale, XlaOp offset, XlaOp mean, XlaOp variance, float epsilon,
                         int64_t feature_index);
// Tuple (grad_operand, grad_scale, grad_offset).
XlaOp BatchNormGrad(XlaOp operand, XlaOp scale, XlaOp batch_mean, XlaOp batch_var, XlaOp grad_output, float epsilon,
                    int64_t feature_index);

// ---------------------------------------------------------------------------------------------
// Random numbers

XlaOp RngUniform(XlaOp a, XlaOp b, const Shape& shape);
XlaOp RngNormal(XlaOp mu, XlaOp sigma, const Shape& shape);
// Tuple (new state, random bits of `shape`).
XlaOp RngBitGenerator(RandomAlgorithm algorithm, XlaOp initial_state, const Shape& shape);

// ---------------------------------------------------------------------------------------------
// Custom calls, collectives, feeds, tokens

XlaOp CustomCall(XlaBuilder* builder, const std::string& call_target_name, const std::vector<XlaOp>& operands,
                 const Shape& shape, const std::string& opaque = "", bool has_side_effect = false);
// Empty replica_groups: all replicas form one group.
XlaOp AllReduce(XlaOp operand, const XlaComputation& computation,
                const std::vector<ReplicaGroup>& replica_groups = {},
                const std::optional<ChannelHandle>& channel_id = std::nullopt);
XlaOp AllGather(XlaOp operand, int64_t all_gather_dimension, int64_t shard_count,
                const std::vector<ReplicaGroup>& replica_groups = {},
                const std::optional<ChannelHandle>& channel_id = std::nullopt);
XlaOp AllToAll(XlaOp operand, int64_t split_dimension, int64_t concat_dimension, int64_t split_count,
               const std::vector<ReplicaGroup>& replica_groups = {});
XlaOp ReduceScatter(XlaOp operand, const XlaComputation& computation, int64_t scatter_dimension, int64_t shard_count,
                    const std::vector<ReplicaGroup>& replica_groups = {},
                    const std::optional<ChannelHandle>& channel_id = std::nullopt);
XlaOp CollectivePermute(XlaOp operand, const std::vector<std::pair<int64_t, int64_t>>& source_target_pairs,
                        const std::optional<ChannelHandle>& channel_id = std::nullopt);
// The U32 id of this replica.
XlaOp ReplicaId(XlaBuilder* builder);

XlaOp CreateToken(XlaBuilder* builder);
XlaOp AfterAll(XlaBuilder* builder, const std::vector<XlaOp>& tokens);
// Reads a value of `shape` from the infeed (ordered by a fresh token).
XlaOp Infeed(XlaBuilder* builder, const Shape& shape, const std::string& config = "");
// Tuple (value, token).
XlaOp InfeedWithToken(XlaOp token, const Shape& shape, const std::string& config = "");
// Writes `operand` to the outfeed. XLA's Outfeed returns nothing; the returned op is the token
// the outfeed produces.
XlaOp Outfeed(XlaOp operand, const Shape& shape_with_layout, const std::string& outfeed_config);
XlaOp OutfeedWithToken(XlaOp operand, XlaOp token, const Shape& shape_with_layout,
                       const std::string& outfeed_config);

// ---------------------------------------------------------------------------------------------
// Operators, as XLA defines them for XlaOp

XlaOp operator-(XlaOp x);
XlaOp operator+(XlaOp x, XlaOp y);
XlaOp operator-(XlaOp x, XlaOp y);
XlaOp operator*(XlaOp x, XlaOp y);
XlaOp operator/(XlaOp x, XlaOp y);
XlaOp operator%(XlaOp x, XlaOp y);
XlaOp operator~(XlaOp x);
XlaOp operator!(XlaOp x);
XlaOp operator&(XlaOp x, XlaOp y);
XlaOp operator|(XlaOp x, XlaOp y);
XlaOp operator^(XlaOp x, XlaOp y);
XlaOp operator<<(XlaOp x, XlaOp y);
// Arithmetic for signed integers, logical for unsigned ones.
XlaOp operator>>(XlaOp x, XlaOp y);

}  // namespace vkhlo
