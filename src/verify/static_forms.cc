#include "verify/static_forms.h"

#include <fmt/format.h>

#include <array>
#include <cstring>

#include "verify/diagnostic.h"
#include "verify/op_context.h"
#include "verify/verifier.h"

namespace vkhlo::verify {
namespace {

using ir::OpCode;
using ir::Type;

constexpr std::array<size_t, 1> kOperand1 = {1};
constexpr std::array<size_t, 1> kOperand0 = {0};
constexpr std::array<size_t, 1> kOperand2 = {2};
constexpr std::array<size_t, 3> kOperands234 = {2, 3, 4};
constexpr std::array<size_t, 3> kOperands123 = {1, 2, 3};

// The names of the shape operands, for messages.
std::vector<std::string_view> ShapeOperandNames(OpCode code) {
  switch (code) {
    case OpCode::kDynamicBroadcastInDim: return {"output_dimensions"};
    case OpCode::kDynamicReshape: return {"output_shape"};
    case OpCode::kDynamicIota: return {"output_shape"};
    case OpCode::kDynamicPad: return {"edge_padding_low", "edge_padding_high", "interior_padding"};
    case OpCode::kRealDynamicSlice: return {"start_indices", "limit_indices", "strides"};
    case OpCode::kDynamicGather: return {"slice_sizes"};
    case OpCode::kDynamicConv: return {"padding"};
    default: return {};
  }
}

std::vector<ir::NamedAttribute> Without(const std::vector<ir::NamedAttribute>& attributes,
                                        std::initializer_list<std::string_view> names) {
  std::vector<ir::NamedAttribute> kept;
  for (const ir::NamedAttribute& a : attributes) {
    bool drop = false;
    for (std::string_view n : names) drop |= a.first == n;
    if (!drop) kept.push_back(a);
  }
  return kept;
}

// dense<...> : tensor<rows x 2 x i64>, convolution's padding attribute.
StatusOr<ir::Attribute> PaddingMatrix(const std::vector<int64_t>& values) {
  std::vector<uint8_t> bytes(values.size() * 8);
  for (size_t i = 0; i < values.size(); ++i) std::memcpy(bytes.data() + i * 8, &values[i], 8);
  const int64_t rows = static_cast<int64_t>(values.size() / 2);
  VKHLO_ASSIGN_OR_RETURN(ir::Literal literal,
                         ir::Literal::FromBytes(Type::Tensor(ir::ElementType::kS64, {rows, 2}), std::move(bytes)));
  return ir::Attribute::Dense(std::move(literal));
}

// "'stablehlo.dynamic_reshape' with output_shape [5, 4]: " before the static op's complaint.
Status Explain(OpCode code, std::span<const std::vector<int64_t>> values, const Status& inner,
               std::string_view prefix) {
  std::string with;
  const auto names = ShapeOperandNames(code);
  for (size_t k = 0; k < values.size() && k < names.size(); ++k) {
    with += fmt::format("{}{} {}", k ? ", " : "", names[k], IntListToString(values[k]));
  }
  std::string message(inner.message());
  // Drop the static op's "error: 'stablehlo.reshape' " so the dynamic op is the one named.
  const size_t quote = message.find("error: '");
  if (quote != std::string::npos) {
    const size_t end = message.find("' ", quote + 8);
    if (end != std::string::npos) message = message.substr(end + 2);
  }
  return Status(inner.code(), fmt::format("{}error: '{}' with {}: {}", prefix, ir::GetOpInfo(code).name, with,
                                          message));
}

}  // namespace

std::span<const size_t> ShapeOperandIndices(OpCode code) {
  switch (code) {
    case OpCode::kDynamicBroadcastInDim:
    case OpCode::kDynamicReshape:
      return kOperand1;
    case OpCode::kDynamicIota:
      return kOperand0;
    case OpCode::kDynamicPad:
      return kOperands234;
    case OpCode::kRealDynamicSlice:
      return kOperands123;
    case OpCode::kDynamicGather:
    case OpCode::kDynamicConv:
      return kOperand2;
    default:
      return {};
  }
}

StatusOr<StaticForm> StaticFormOf(OpCode code, const std::vector<ir::NamedAttribute>& attributes,
                                  std::span<const Type> operand_types,
                                  std::span<const std::vector<int64_t>> shape_values, const Type& declared_result,
                                  std::string_view prefix) {
  const std::span<const size_t> shape_operands = ShapeOperandIndices(code);
  if (shape_operands.empty() || shape_values.size() != shape_operands.size()) {
    return InvalidArgumentError(fmt::format("{}error: '{}' has no static form (it is not a dynamic-shape op)", prefix,
                                            ir::GetOpInfo(code).name));
  }
  if (!declared_result.is_tensor()) {
    return InvalidArgumentError(fmt::format("{}error: '{}' result must be a tensor, found {}", prefix,
                                            ir::GetOpInfo(code).name, declared_result.ToString()));
  }
  StaticForm form;
  bool result_from_values = false;  // the shape operand is the result shape itself
  switch (code) {
    case OpCode::kDynamicBroadcastInDim:
      form.code = OpCode::kBroadcastInDim;
      form.operands = {0};
      form.attributes = Without(attributes, {"known_expanding_dimensions", "known_nonexpanding_dimensions"});
      result_from_values = true;
      break;
    case OpCode::kDynamicReshape:
      form.code = OpCode::kReshape;
      form.operands = {0};
      result_from_values = true;
      break;
    case OpCode::kDynamicIota:
      form.code = OpCode::kIota;
      form.attributes = attributes;
      result_from_values = true;
      break;
    case OpCode::kDynamicPad:
      form.code = OpCode::kPad;
      form.operands = {0, 1};
      form.attributes = {{"edge_padding_low", ir::Attribute::I64Array(shape_values[0])},
                         {"edge_padding_high", ir::Attribute::I64Array(shape_values[1])},
                         {"interior_padding", ir::Attribute::I64Array(shape_values[2])}};
      break;
    case OpCode::kRealDynamicSlice:
      form.code = OpCode::kSlice;
      form.operands = {0};
      form.attributes = {{"start_indices", ir::Attribute::I64Array(shape_values[0])},
                         {"limit_indices", ir::Attribute::I64Array(shape_values[1])},
                         {"strides", ir::Attribute::I64Array(shape_values[2])}};
      break;
    case OpCode::kDynamicGather:
      form.code = OpCode::kGather;
      form.operands = {0, 1};
      form.attributes = Without(attributes, {"slice_sizes"});
      form.attributes.emplace_back("slice_sizes", ir::Attribute::I64Array(shape_values[0]));
      break;
    case OpCode::kDynamicConv: {
      form.code = OpCode::kConvolution;
      form.operands = {0, 1};
      form.attributes = Without(attributes, {"padding"});
      if (shape_values[0].size() % 2 != 0) {
        return InvalidArgumentError(fmt::format("{}error: 'stablehlo.dynamic_conv' padding must have two values per "
                                                "spatial dimension, found {}", prefix,
                                                IntListToString(shape_values[0])));
      }
      VKHLO_ASSIGN_OR_RETURN(ir::Attribute padding, PaddingMatrix(shape_values[0]));
      form.attributes.emplace_back("padding", std::move(padding));
      break;
    }
    default:
      break;
  }
  std::vector<Type> kept;
  for (size_t i : form.operands) {
    if (i >= operand_types.size()) {
      return InvalidArgumentError(fmt::format("{}error: '{}' has {} operands", prefix, ir::GetOpInfo(code).name,
                                              operand_types.size()));
    }
    kept.push_back(operand_types[i]);
  }
  if (result_from_values) {
    for (int64_t d : shape_values[0]) {
      if (d < 0) {
        return Explain(code, shape_values,
                       InvalidArgumentError(fmt::format("error: 'x' sizes must be non-negative: expected sizes >= 0, "
                                                        "found {}", d)),
                       prefix);
      }
    }
    if (static_cast<int64_t>(shape_values[0].size()) != declared_result.rank()) {
      return Explain(code, shape_values,
                     InvalidArgumentError(fmt::format("error: 'x' the shape must have the result's rank: expected {} "
                                                      "sizes, found {}", declared_result.rank(),
                                                      shape_values[0].size())),
                     prefix);
    }
    form.result = declared_result.WithDims(shape_values[0]);
  } else {
    StatusOr<std::vector<Type>> inferred = InferResultTypes(form.code, kept, form.attributes);
    if (!inferred.ok()) return Explain(code, shape_values, inferred.status(), prefix);
    if (inferred->size() != 1) return InternalError("static form with several results");
    // The shape is the static op's; the element type stays the dynamic op's own (a convolution
    // may have a wider result element than its lhs).
    form.result = declared_result.WithDims((*inferred)[0].dims());
  }
  Status checked = VerifyTypes(form.code, kept, std::span(&form.result, 1), form.attributes, {}, "");
  if (!checked.ok()) return Explain(code, shape_values, checked, prefix);
  if (!CompatibleExact(form.result, declared_result.WithBounds({}))) {
    return Explain(code, shape_values,
                   InvalidArgumentError(fmt::format("error: 'x' the result type must fit the shape the operands give: "
                                                    "expected {}, found {}", form.result.ToString(),
                                                    declared_result.ToString())),
                   prefix);
  }
  const std::vector<int64_t>& bounds = declared_result.bounds();
  for (size_t i = 0; i < bounds.size(); ++i) {
    if (!ir::IsDynamicDim(bounds[i]) && form.result.dims()[i] > bounds[i]) {
      return Explain(code, shape_values,
                     InvalidArgumentError(fmt::format("error: 'x' result dimension {} must be within its bound: "
                                                      "expected at most {}, found {}", i, bounds[i],
                                                      form.result.dims()[i])),
                     prefix);
    }
  }
  return form;
}

}  // namespace vkhlo::verify
