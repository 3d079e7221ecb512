#include "interp/shape_util.h"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <string>

namespace vkhlo::interp {

int64_t NumElements(std::span<const int64_t> dims) {
  int64_t n = 1;
  for (int64_t d : dims) {
    if (d <= 0) return 0;
    n *= d;
  }
  return n;
}

std::string DimsToString(std::span<const int64_t> dims) {
  std::string s = "[";
  for (size_t i = 0; i < dims.size(); ++i) s += (i ? ", " : "") + std::to_string(dims[i]);
  return s + "]";
}

void StridedCopy(const ElementReader& src, int64_t src_base, std::span<const int64_t> src_strides, uint8_t* dst,
                 int64_t dst_base, std::span<const int64_t> dst_strides, std::span<const int64_t> dims) {
  const int64_t eb = src.element_bytes();
  const size_t rank = dims.size();
  if (NumElements(dims) == 0) return;
  if (src.is_splat()) {
    ForEachIndex(dims, 0, src_strides, dst_base, dst_strides,
                 [&](int64_t, int64_t d) { std::memcpy(dst + d * eb, src.at(0), eb); });
    return;
  }
  // Contiguous innermost dimension on both sides: copy whole rows.
  if (rank > 0 && src_strides[rank - 1] == 1 && dst_strides[rank - 1] == 1) {
    const int64_t row = dims[rank - 1] * eb;
    ForEachIndex(dims.first(rank - 1), src_base, src_strides.first(rank - 1), dst_base, dst_strides.first(rank - 1),
                 [&](int64_t s, int64_t d) { std::memcpy(dst + d * eb, src.at(s), row); });
    return;
  }
  ForEachIndex(dims, src_base, src_strides, dst_base, dst_strides,
               [&](int64_t s, int64_t d) { std::memcpy(dst + d * eb, src.at(s), eb); });
}

void FillElements(uint8_t* dst, int64_t num_elements, const uint8_t* element, int64_t element_bytes) {
  for (int64_t i = 0; i < num_elements; ++i) std::memcpy(dst + i * element_bytes, element, element_bytes);
}

StatusOr<const ir::Literal*> TensorOperand(EvalContext& context, const ir::Operation& op, const InterpValues& operands,
                                           size_t i) {
  if (i >= operands.size()) return context.OpError(op, fmt::format("has no operand {}", i));
  if (!operands[i].is_tensor()) return context.OpError(op, fmt::format("operand {} is not a tensor", i));
  return &operands[i].literal();
}

Status CheckOperandCount(EvalContext& context, const ir::Operation& op, const InterpValues& operands, size_t count,
                         bool at_least) {
  if (operands.size() == count || (at_least && operands.size() > count)) return OkStatus();
  return context.OpError(
      op, fmt::format("takes {}{} operands, given {}", at_least ? "at least " : "", count, operands.size()));
}

StatusOr<Dims> I64VectorAttr(EvalContext& context, const ir::Operation& op, std::string_view name) {
  const ir::Attribute* attr = op.attribute(name);
  if (attr == nullptr) return context.OpError(op, fmt::format("has no `{}` attribute", name));
  auto values = attr->AsI64Vector();
  if (!values) {
    return context.OpError(op, fmt::format("`{}` must be a list of integers, found {}", name, attr->ToString()));
  }
  return *values;
}

StatusOr<Dims> I64VectorAttrOr(EvalContext& context, const ir::Operation& op, std::string_view name, Dims fallback) {
  if (op.attribute(name) == nullptr) return fallback;
  return I64VectorAttr(context, op, name);
}

StatusOr<int64_t> I64Attr(EvalContext& context, const ir::Operation& op, std::string_view name) {
  const ir::Attribute* attr = op.attribute(name);
  if (attr == nullptr) return context.OpError(op, fmt::format("has no `{}` attribute", name));
  auto value = attr->AsInt();
  if (!value) {
    // A one-element list reads as its element (dense<1> : tensor<1xi64>).
    auto values = attr->AsI64Vector();
    if (values && values->size() == 1) return (*values)[0];
    return context.OpError(op, fmt::format("`{}` must be an integer, found {}", name, attr->ToString()));
  }
  return *value;
}

int64_t IndexValue(const ir::Literal& literal, int64_t index) {
  if (IsUnsignedInteger(literal.element_type())) {
    const uint64_t bits = literal.GetBits(index);
    const int width = ir::BitWidth(literal.element_type());
    const uint64_t value = width >= 64 ? bits : bits & ((uint64_t{1} << width) - 1);
    return value > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()) ? std::numeric_limits<int64_t>::max()
                                                                              : static_cast<int64_t>(value);
  }
  return literal.GetInt(index);
}

StatusOr<Dims> IntegerTensorValues(EvalContext& context, const ir::Operation& op, const ir::Literal& literal,
                                   std::string_view what) {
  const ir::ElementType et = literal.element_type();
  if (!ir::IsInteger(et) || literal.type().rank() > 1) {
    return context.OpError(
        op, fmt::format("`{}` must be a 1-dimensional integer tensor, found {}", what, literal.type().ToString()));
  }
  Dims values(static_cast<size_t>(literal.num_elements()));
  for (size_t i = 0; i < values.size(); ++i) values[i] = IndexValue(literal, static_cast<int64_t>(i));
  return values;
}

StatusOr<ir::Type> ResultTensorType(EvalContext& context, const ir::Operation& op, size_t i,
                                    std::span<const int64_t> dims, ir::ElementType element) {
  if (i >= op.num_results()) return context.OpError(op, fmt::format("has no result {}", i));
  const ir::Type& type = op.result(i)->type();
  const bool dims_match = type.is_tensor() && type.rank() == static_cast<int64_t>(dims.size()) &&
                          std::equal(dims.begin(), dims.end(), type.dims().begin());
  if (!dims_match || type.element_type() != element) {
    return context.OpError(op, fmt::format("result {} should have shape {} and element type {}, but is declared {}", i,
                                           DimsToString(dims), ir::ElementTypeName(element), type.ToString()));
  }
  return type;
}

StatusOr<const ir::Type*> DeclaredTensorResult(EvalContext& context, const ir::Operation& op) {
  if (op.num_results() != 1 || !op.result(0)->type().is_tensor()) {
    return context.OpError(op, "must have one tensor result");
  }
  return &op.result(0)->type();
}

Status CheckDimensionList(EvalContext& context, const ir::Operation& op, std::string_view what,
                          std::span<const int64_t> dims, int64_t rank, bool sorted) {
  std::vector<bool> seen(static_cast<size_t>(std::max<int64_t>(rank, 0)), false);
  for (size_t i = 0; i < dims.size(); ++i) {
    const int64_t d = dims[i];
    if (d < 0 || d >= rank) {
      return context.OpError(op,
                             fmt::format("{} {} has dimension {} outside [0, {})", what, DimsToString(dims), d, rank));
    }
    if (seen[d]) return context.OpError(op, fmt::format("{} {} repeats dimension {}", what, DimsToString(dims), d));
    if (sorted && i > 0 && dims[i - 1] > d) {
      return context.OpError(op, fmt::format("{} {} must be sorted in ascending order", what, DimsToString(dims)));
    }
    seen[d] = true;
  }
  return OkStatus();
}

StatusOr<InterpValue> ScalarValue(const ir::Type& tensor_type, const uint8_t* element) {
  const ir::Type scalar = tensor_type.WithDims({});
  const size_t bytes = static_cast<size_t>(ir::StorageBytes(scalar.element_type()));
  VKHLO_ASSIGN_OR_RETURN(ir::Literal literal,
                         ir::Literal::FromBytes(scalar, std::vector<uint8_t>(element, element + bytes)));
  return InterpValue::Tensor(std::move(literal));
}

StatusOr<InterpValues> EvaluateScalarRegion(EvalContext& context, const ir::Operation& op, const ir::Region& region,
                                            const InterpValues& arguments,
                                            std::span<const ir::ElementType> result_types, std::string_view what) {
  if (region.empty() || region.front().num_arguments() != arguments.size()) {
    return context.OpError(op, fmt::format("{} must take {} arguments, takes {}", what, arguments.size(),
                                           region.empty() ? 0 : region.front().num_arguments()));
  }
  auto results = context.EvaluateRegion(region, arguments);
  if (!results.ok()) return results.status();
  if (results->size() != result_types.size()) {
    return context.OpError(
        op, fmt::format("{} must return {} values, returned {}", what, result_types.size(), results->size()));
  }
  for (size_t i = 0; i < result_types.size(); ++i) {
    const InterpValue& v = (*results)[i];
    if (!v.is_tensor() || v.literal().type().rank() != 0 || v.literal().element_type() != result_types[i]) {
      return context.OpError(op, fmt::format("{} must return tensor<{}> as value {}, returned {}", what,
                                             ir::ElementTypeName(result_types[i]), i, v.type().ToString()));
    }
  }
  return results;
}

StatusOr<bool> ScalarPredicate(EvalContext& context, const ir::Operation& op, const InterpValue& value,
                               std::string_view what) {
  if (!value.is_tensor() || value.literal().num_elements() != 1 ||
      value.literal().element_type() != ir::ElementType::kI1) {
    return context.OpError(op, fmt::format("{} must be a tensor<i1>, found {}", what, value.type().ToString()));
  }
  return value.literal().GetInt(0) != 0;
}

}  // namespace vkhlo::interp
