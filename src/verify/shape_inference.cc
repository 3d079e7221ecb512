#include "verify/shape_inference.h"

#include <fmt/format.h>

namespace vkhlo::verify {

using ir::Type;

Type UnaryResultType(const Type& operand, UnaryResult kind) {
  switch (kind) {
    case UnaryResult::kSame:
      return operand;
    case UnaryResult::kRealPart:
      if (!operand.is_quantized() && ir::IsComplex(operand.element_type())) {
        return Type::Tensor(ir::ComplexPartType(operand.element_type()), operand.dims());
      }
      return operand;
    case UnaryResult::kBoolean:
      return Type::Tensor(ir::ElementType::kI1, operand.dims());
  }
  return operand;
}

Type MergeShapes(const Type& a, const Type& b) {
  if (a.is_static() || !b.is_tensor() || a.rank() != b.rank()) return a;
  std::vector<int64_t> dims = a.dims();
  for (size_t i = 0; i < dims.size(); ++i) dims[i] = MergeDim(dims[i], b.dims()[i]);
  return a.WithDims(std::move(dims));
}

Status CheckSameOperandTypes(const OpContext& ctx, std::string_view label) {
  for (size_t i = 1; i < ctx.num_operands(); ++i) {
    if (!CompatibleType(ctx.operand(0), ctx.operand(i))) {
      return ctx.Error(fmt::format("operand types must match ({})", label), ctx.operand(0).ToString(),
                       ctx.operand(i).ToString());
    }
  }
  return OkStatus();
}

StatusOr<int64_t> NumWindows(const OpContext& ctx, const WindowDim& d, std::string_view label) {
  auto overflow = [&]() {
    return ctx.Error(fmt::format("window arithmetic overflows ({})", label), "sizes that fit in int64",
                     fmt::format("size {}, window {}, padding [{}, {}], dilations {} and {}", d.size, d.window,
                                 d.pad_low, d.pad_high, d.base_dilation, d.window_dilation));
  };
  int64_t dilated_input = 0;
  if (d.size != 0) {
    auto scaled = CheckedMul(d.size - 1, d.base_dilation);
    if (!scaled || !CheckedAdd(*scaled, 1)) return overflow();
    dilated_input = *scaled + 1;
  }
  auto padded = CheckedAdd(d.pad_low, dilated_input);
  if (padded) padded = CheckedAdd(*padded, d.pad_high);
  if (!padded) return overflow();
  int64_t dilated_window = 0;
  if (d.window != 0) {
    auto scaled = CheckedMul(d.window - 1, d.window_dilation);
    if (!scaled || !CheckedAdd(*scaled, 1)) return overflow();
    dilated_window = *scaled + 1;
  }
  if (*padded <= 0 || dilated_window > *padded) return int64_t{0};
  if (d.stride <= 0) return overflow();
  return (*padded - dilated_window) / d.stride + 1;
}

Type WithDims(const Type& like, std::vector<int64_t> dims) { return like.WithDims(std::move(dims)); }

StatusOr<std::vector<int64_t>> WindowAttribute(const OpContext& ctx, std::string_view name, int64_t rank,
                                               int64_t fill, bool positive, std::string_view size_label,
                                               std::string_view value_label) {
  VKHLO_ASSIGN_OR_RETURN(auto values, ctx.OptionalInts(name));
  if (!values) return std::vector<int64_t>(static_cast<size_t>(std::max<int64_t>(rank, 0)), fill);
  VKHLO_RETURN_IF_ERROR(ctx.CheckSize(*values, rank, name, size_label));
  if (positive) {
    for (int64_t v : *values) {
      if (v <= 0) {
        return ctx.Error(fmt::format("{} must be positive ({})", name, value_label), "values > 0",
                         IntListToString(*values));
      }
    }
  }
  return std::move(*values);
}

StatusOr<std::vector<std::pair<int64_t, int64_t>>> PaddingAttribute(const OpContext& ctx, std::string_view name,
                                                                    int64_t rank, std::string_view label) {
  VKHLO_ASSIGN_OR_RETURN(auto matrix, ctx.Matrix(name, /*flat_as_pairs=*/true));
  std::vector<std::pair<int64_t, int64_t>> pads;
  if (!matrix) {
    pads.assign(static_cast<size_t>(std::max<int64_t>(rank, 0)), {0, 0});
    return pads;
  }
  if (matrix->rows != rank || matrix->cols != 2) {
    // An empty padding attribute stands for "no padding" when there are no dimensions to pad.
    if (!(matrix->values.empty() && rank == 0)) {
      return ctx.Error(fmt::format("{} must have shape [{}, 2] ({})", name, rank, label),
                       fmt::format("[{}, 2]", rank), fmt::format("[{}, {}]", matrix->rows, matrix->cols));
    }
  }
  for (int64_t r = 0; r < matrix->rows && matrix->cols == 2; ++r) pads.push_back({matrix->at(r, 0), matrix->at(r, 1)});
  return pads;
}

std::optional<std::vector<int64_t>> ConstantOperandInts(const OpContext& ctx, size_t i) {
  if (ctx.op() == nullptr || i >= ctx.op()->num_operands() || ctx.op()->operand(i) == nullptr) return std::nullopt;
  const ir::Operation* producer = ctx.op()->operand(i)->defining_op();
  if (producer == nullptr || producer->code() != ir::OpCode::kConstant) return std::nullopt;
  const ir::Attribute* value = producer->attribute("value");
  if (value == nullptr) return std::nullopt;
  const ir::Literal* literal = value->AsDenseElements();
  if (literal == nullptr || literal->type().rank() != 1 || literal->num_elements() > (1 << 16)) return std::nullopt;
  return value->AsI64Vector();
}

Status RequireShapeOperand(const OpContext& ctx, size_t i, int64_t size, std::string_view label) {
  const Type& t = ctx.operand(i);
  if (!IsTensorOf(t, kInt) || t.rank() != 1 || (size >= 0 && !CompatibleDim(t.dim(0), size))) {
    return ctx.Error(fmt::format("{} has an invalid type", label),
                     size >= 0 ? fmt::format("1-dimensional integer tensor of {} elements", size)
                               : std::string("1-dimensional integer tensor"),
                     t.ToString());
  }
  return OkStatus();
}

}  // namespace vkhlo::verify
