// Dot products, convolutions, FFT, triangular solve, Cholesky and batch normalization.
#include <fmt/format.h>

#include "builder/builder_state.h"
#include "builder/type_conversion.h"
#include "verify/verifier.h"
#include "vkhlo/xla_builder.h"

namespace vkhlo {
namespace {

using internal::BuilderState;
using internal::OpCall;
using ir::OpCode;
using ir::Value;

// An op with inferred results whose element type may be overridden (preferred_element_type);
// its results come back as one value (a tuple when there are several).
XlaOp Library(OpCall& call, OpCode code, std::vector<ir::NamedAttribute> attributes,
              std::optional<PrimitiveType> preferred_element_type = std::nullopt) {
  if (!call.ok()) return call.Invalid();
  BuilderState& state = call.state();
  std::vector<ir::Type> operand_types;
  for (const Value* value : call.values()) operand_types.push_back(value->type());
  auto types = verify::InferResultTypes(code, operand_types, attributes);
  if (!types.ok()) return call.Fail(types.status());
  if (preferred_element_type) {
    std::optional<ir::ElementType> element = internal::ToElementType(*preferred_element_type);
    if (!element) {
      return call.Fail(InvalidArgumentError(fmt::format("preferred_element_type {} is not an array element type",
                                                        PrimitiveType_Name(*preferred_element_type))));
    }
    for (ir::Type& type : *types) type = type.WithElementType(*element);
  }
  auto op = internal::EmitTyped(state, call.block(), code, call.values(), *types, std::move(attributes));
  if (!op.ok()) return call.Fail(op.status());
  return call.Finish(internal::EmitTupleOf(state, call.block(), (*op)->results()));
}

ir::DotDimensionNumbers ToIr(const DotDimensionNumbers& d) {
  ir::DotDimensionNumbers dnums;
  dnums.lhs_batching_dimensions = d.lhs_batch_dimensions();
  dnums.rhs_batching_dimensions = d.rhs_batch_dimensions();
  dnums.lhs_contracting_dimensions = d.lhs_contracting_dimensions();
  dnums.rhs_contracting_dimensions = d.rhs_contracting_dimensions();
  return dnums;
}

ir::ConvDimensionNumbers ToIr(const ConvolutionDimensionNumbers& d) {
  ir::ConvDimensionNumbers dnums;
  dnums.input_batch_dimension = d.input_batch_dimension();
  dnums.input_feature_dimension = d.input_feature_dimension();
  dnums.input_spatial_dimensions = d.input_spatial_dimensions();
  dnums.kernel_input_feature_dimension = d.kernel_input_feature_dimension();
  dnums.kernel_output_feature_dimension = d.kernel_output_feature_dimension();
  dnums.kernel_spatial_dimensions = d.kernel_spatial_dimensions();
  dnums.output_batch_dimension = d.output_batch_dimension();
  dnums.output_feature_dimension = d.output_feature_dimension();
  dnums.output_spatial_dimensions = d.output_spatial_dimensions();
  return dnums;
}

XlaOp DotGeneralImpl(const char* name, XlaOp lhs, XlaOp rhs, const DotDimensionNumbers& dimension_numbers,
                     const PrecisionConfig* precision_config, std::optional<PrimitiveType> preferred_element_type) {
  OpCall call(name, {lhs, rhs});
  std::vector<ir::NamedAttribute> attributes = {{"dot_dimension_numbers", ir::Attribute(ToIr(dimension_numbers))}};
  internal::AddPrecisionConfig(attributes, precision_config, 2);
  return Library(call, OpCode::kDotGeneral, std::move(attributes), preferred_element_type);
}

// The spatial sizes of `type` along `dims` (empty when the type is not an array or a dim is
// out of range: the op's own checks then report it).
std::vector<int64_t> SpatialSizes(const ir::Type& type, const std::vector<int64_t>& dims) {
  std::vector<int64_t> sizes;
  for (int64_t d : dims) {
    if (!type.is_tensor() || d < 0 || d >= type.rank()) return {};
    sizes.push_back(type.dim(d));
  }
  return sizes;
}

XlaOp ConvImpl(const char* name, XlaOp lhs, XlaOp rhs, const std::vector<int64_t>& window_strides,
               const std::optional<std::vector<std::pair<int64_t, int64_t>>>& padding, Padding padding_kind,
               const std::vector<int64_t>& lhs_dilation, const std::vector<int64_t>& rhs_dilation,
               const ConvolutionDimensionNumbers& dimension_numbers, int64_t feature_group_count,
               int64_t batch_group_count, const PrecisionConfig* precision_config,
               std::optional<PrimitiveType> preferred_element_type) {
  OpCall call(name, {lhs, rhs});
  if (!call.ok()) return call.Invalid();
  std::vector<std::pair<int64_t, int64_t>> pads;
  if (padding) {
    pads = *padding;
  } else {
    pads = MakePadding(SpatialSizes(call.type(0), dimension_numbers.input_spatial_dimensions()),
                       SpatialSizes(call.type(1), dimension_numbers.kernel_spatial_dimensions()), window_strides,
                       padding_kind);
  }
  std::vector<std::vector<int64_t>> rows;
  for (const auto& [low, high] : pads) rows.push_back({low, high});
  std::vector<ir::NamedAttribute> attributes = {
      {"window_strides", internal::I64Array(window_strides)},
      {"padding", internal::I64Matrix(rows, 2)},
      {"dimension_numbers", ir::Attribute(ToIr(dimension_numbers))},
      {"feature_group_count", internal::I64Attr(feature_group_count)},
      {"batch_group_count", internal::I64Attr(batch_group_count)}};
  if (!lhs_dilation.empty()) attributes.emplace_back("lhs_dilation", internal::I64Array(lhs_dilation));
  if (!rhs_dilation.empty()) attributes.emplace_back("rhs_dilation", internal::I64Array(rhs_dilation));
  internal::AddPrecisionConfig(attributes, precision_config, 2);
  return Library(call, OpCode::kConvolution, std::move(attributes), preferred_element_type);
}

const char* FftTypeName(FftType type) {
  switch (type) {
    case FFT: return "FFT";
    case IFFT: return "IFFT";
    case RFFT: return "RFFT";
    case IRFFT: return "IRFFT";
  }
  return "FFT";
}

ir::Attribute F32Attr(float value) { return ir::Attribute::Float(value, ir::ElementType::kF32); }

}  // namespace

XlaOp Dot(XlaOp lhs, XlaOp rhs, const PrecisionConfig* precision_config,
          std::optional<PrimitiveType> preferred_element_type) {
  // Contracts lhs's last dimension with rhs's first (ranks 1 and 2; others fail in dot_general's
  // checks or here).
  DotDimensionNumbers dnums;
  XlaBuilder* builder = lhs.builder();
  if (builder != nullptr && lhs.valid()) {
    StatusOr<Shape> shape = builder->GetShape(lhs);
    if (shape.ok() && shape->IsArray()) {
      if (shape->rank() < 1 || shape->rank() > 2) {
        OpCall call("Dot", {lhs, rhs});
        if (!call.ok()) return call.Invalid();
        return call.Fail(InvalidArgumentError("Dot takes vectors and matrices (rank 1 or 2); use DotGeneral"));
      }
      dnums.add_lhs_contracting_dimensions(shape->rank() - 1);
    }
  }
  dnums.add_rhs_contracting_dimensions(0);
  return DotGeneralImpl("Dot", lhs, rhs, dnums, precision_config, preferred_element_type);
}

XlaOp DotGeneral(XlaOp lhs, XlaOp rhs, const DotDimensionNumbers& dimension_numbers,
                 const PrecisionConfig* precision_config, std::optional<PrimitiveType> preferred_element_type) {
  return DotGeneralImpl("DotGeneral", lhs, rhs, dimension_numbers, precision_config, preferred_element_type);
}

ConvolutionDimensionNumbers CreateDefaultConvDimensionNumbers(int num_spatial_dims) {
  ConvolutionDimensionNumbers dnums;
  dnums.set_input_batch_dimension(0);
  dnums.set_input_feature_dimension(1);
  dnums.set_output_batch_dimension(0);
  dnums.set_output_feature_dimension(1);
  dnums.set_kernel_output_feature_dimension(0);
  dnums.set_kernel_input_feature_dimension(1);
  for (int i = 0; i < num_spatial_dims; ++i) {
    dnums.add_input_spatial_dimensions(i + 2);
    dnums.add_kernel_spatial_dimensions(i + 2);
    dnums.add_output_spatial_dimensions(i + 2);
  }
  return dnums;
}

namespace {
// The default dimension numbers for `lhs`'s rank (2 spatial dimensions when unknown).
ConvolutionDimensionNumbers DefaultFor(XlaOp lhs) {
  int spatial = 2;
  if (lhs.builder() != nullptr && lhs.valid()) {
    StatusOr<Shape> shape = lhs.builder()->GetShape(lhs);
    if (shape.ok() && shape->IsArray() && shape->rank() >= 2) spatial = static_cast<int>(shape->rank()) - 2;
  }
  return CreateDefaultConvDimensionNumbers(spatial);
}
}  // namespace

XlaOp Conv(XlaOp lhs, XlaOp rhs, const std::vector<int64_t>& window_strides, Padding padding,
           int64_t feature_group_count, int64_t batch_group_count, const PrecisionConfig* precision_config,
           std::optional<PrimitiveType> preferred_element_type) {
  return ConvImpl("Conv", lhs, rhs, window_strides, std::nullopt, padding, {}, {}, DefaultFor(lhs),
                  feature_group_count, batch_group_count, precision_config, preferred_element_type);
}

XlaOp ConvWithGeneralPadding(XlaOp lhs, XlaOp rhs, const std::vector<int64_t>& window_strides,
                             const std::vector<std::pair<int64_t, int64_t>>& padding, int64_t feature_group_count,
                             int64_t batch_group_count, const PrecisionConfig* precision_config,
                             std::optional<PrimitiveType> preferred_element_type) {
  return ConvImpl("ConvWithGeneralPadding", lhs, rhs, window_strides, padding, Padding::kValid, {}, {},
                  DefaultFor(lhs), feature_group_count, batch_group_count, precision_config, preferred_element_type);
}

XlaOp ConvWithGeneralDimensions(XlaOp lhs, XlaOp rhs, const std::vector<int64_t>& window_strides, Padding padding,
                                const ConvolutionDimensionNumbers& dimension_numbers, int64_t feature_group_count,
                                int64_t batch_group_count, const PrecisionConfig* precision_config,
                                std::optional<PrimitiveType> preferred_element_type) {
  return ConvImpl("ConvWithGeneralDimensions", lhs, rhs, window_strides, std::nullopt, padding, {}, {},
                  dimension_numbers, feature_group_count, batch_group_count, precision_config,
                  preferred_element_type);
}

XlaOp ConvGeneral(XlaOp lhs, XlaOp rhs, const std::vector<int64_t>& window_strides,
                  const std::vector<std::pair<int64_t, int64_t>>& padding,
                  const ConvolutionDimensionNumbers& dimension_numbers, int64_t feature_group_count,
                  int64_t batch_group_count, const PrecisionConfig* precision_config,
                  std::optional<PrimitiveType> preferred_element_type) {
  return ConvImpl("ConvGeneral", lhs, rhs, window_strides, padding, Padding::kValid, {}, {}, dimension_numbers,
                  feature_group_count, batch_group_count, precision_config, preferred_element_type);
}

XlaOp ConvGeneralDilated(XlaOp lhs, XlaOp rhs, const std::vector<int64_t>& window_strides,
                         const std::vector<std::pair<int64_t, int64_t>>& padding,
                         const std::vector<int64_t>& lhs_dilation, const std::vector<int64_t>& rhs_dilation,
                         const ConvolutionDimensionNumbers& dimension_numbers, int64_t feature_group_count,
                         int64_t batch_group_count, const PrecisionConfig* precision_config,
                         std::optional<PrimitiveType> preferred_element_type) {
  return ConvImpl("ConvGeneralDilated", lhs, rhs, window_strides, padding, Padding::kValid, lhs_dilation,
                  rhs_dilation, dimension_numbers, feature_group_count, batch_group_count, precision_config,
                  preferred_element_type);
}

XlaOp Fft(XlaOp operand, FftType fft_type, const std::vector<int64_t>& fft_length) {
  OpCall call("Fft", {operand});
  return Library(call, OpCode::kFft,
                 {{"fft_type", internal::EnumAttr("fft_type", FftTypeName(fft_type))},
                  {"fft_length", internal::I64Array(fft_length)}});
}

XlaOp TriangularSolve(XlaOp a, XlaOp b, bool left_side, bool lower, bool unit_diagonal,
                      TriangularSolveOptions::Transpose transpose_a) {
  OpCall call("TriangularSolve", {a, b});
  const char* transpose = transpose_a == TriangularSolveOptions::TRANSPOSE ? "TRANSPOSE"
                          : transpose_a == TriangularSolveOptions::ADJOINT ? "ADJOINT"
                          : transpose_a == TriangularSolveOptions::NO_TRANSPOSE ? "NO_TRANSPOSE"
                                                                                 : "TRANSPOSE_INVALID";
  return Library(call, OpCode::kTriangularSolve,
                 {{"left_side", internal::BoolAttr(left_side)},
                  {"lower", internal::BoolAttr(lower)},
                  {"unit_diagonal", internal::BoolAttr(unit_diagonal)},
                  {"transpose_a", internal::EnumAttr("transpose", transpose)}});
}

XlaOp Cholesky(XlaOp a, bool lower) {
  OpCall call("Cholesky", {a});
  return Library(call, OpCode::kCholesky, {{"lower", internal::BoolAttr(lower)}});
}

XlaOp BatchNormTraining(XlaOp operand, XlaOp scale, XlaOp offset, float epsilon, int64_t feature_index) {
  OpCall call("BatchNormTraining", {operand, scale, offset});
  return Library(call, OpCode::kBatchNormTraining,
                 {{"epsilon", F32Attr(epsilon)}, {"feature_index", internal::I64Attr(feature_index)}});
}

XlaOp BatchNormInference(XlaOp operand, XlaOp scale, XlaOp offset, XlaOp mean, XlaOp variance, float epsilon,
                         int64_t feature_index) {
  OpCall call("BatchNormInference", {operand, scale, offset, mean, variance});
  return Library(call, OpCode::kBatchNormInference,
                 {{"epsilon", F32Attr(epsilon)}, {"feature_index", internal::I64Attr(feature_index)}});
}

XlaOp BatchNormGrad(XlaOp operand, XlaOp scale, XlaOp batch_mean, XlaOp batch_var, XlaOp grad_output, float epsilon,
                    int64_t feature_index) {
  OpCall call("BatchNormGrad", {operand, scale, batch_mean, batch_var, grad_output});
  return Library(call, OpCode::kBatchNormGrad,
                 {{"epsilon", F32Attr(epsilon)}, {"feature_index", internal::I64Attr(feature_index)}});
}

}  // namespace vkhlo
