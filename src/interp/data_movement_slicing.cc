// Ops that cut or extend a tensor along its dimensions: slice (and real_dynamic_slice),
// dynamic_slice, dynamic_update_slice (start indices clamped as the spec says), pad (and
// dynamic_pad) with negative edge and interior padding.
#include <fmt/format.h>

#include <algorithm>

#include "interp/data_movement.h"
#include "interp/shape_util.h"

namespace vkhlo::interp {
namespace {

using ir::Literal;
using ir::Operation;

// result[i] = operand[start + i * strides]; requires 0 <= start <= limit <= dim, strides > 0.
StatusOr<InterpValues> Slice(EvalContext& context, const Operation& op, const Literal& operand, const Dims& start,
                             const Dims& limit, const Dims& strides) {
  const Dims& od = operand.type().dims();
  const size_t rank = od.size();
  if (start.size() != rank || limit.size() != rank || strides.size() != rank) {
    return context.OpError(op, fmt::format("start_indices {}, limit_indices {} and strides {} must each have {} "
                                           "entries",
                                           DimsToString(start), DimsToString(limit), DimsToString(strides), rank));
  }
  const Dims operand_strides = RowMajorStrides(od);
  Dims result_dims(rank), src_strides(rank);
  int64_t base = 0;
  for (size_t d = 0; d < rank; ++d) {
    if (start[d] < 0 || start[d] > limit[d] || limit[d] > od[d]) {
      return context.OpError(op, fmt::format("dimension {}: need 0 <= start ({}) <= limit ({}) <= size ({})", d,
                                             start[d], limit[d], od[d]));
    }
    if (strides[d] <= 0)
      return context.OpError(op, fmt::format("dimension {}: stride {} must be positive", d, strides[d]));
    result_dims[d] = limit[d] == start[d] ? 0 : (limit[d] - start[d] - 1) / strides[d] + 1;
    src_strides[d] = operand_strides[d] * strides[d];
    base += start[d] * operand_strides[d];
  }
  VKHLO_ASSIGN_OR_RETURN(ir::Type type, ResultTensorType(context, op, 0, result_dims, operand.element_type()));
  if (operand.is_splat()) {
    VKHLO_ASSIGN_OR_RETURN(Literal result, Literal::CreateSplat(type, operand.raw()));
    return InterpValues{InterpValue::Tensor(std::move(result))};
  }
  VKHLO_ASSIGN_OR_RETURN(Literal result, Literal::Create(type));
  VKHLO_ASSIGN_OR_RETURN(std::span<uint8_t> out, result.mutable_raw());
  StridedCopy(ElementReader(operand), base, src_strides, out.data(), 0, RowMajorStrides(result_dims), result_dims);
  return InterpValues{InterpValue::Tensor(std::move(result))};
}

StatusOr<InterpValues> EvalSlice(EvalContext& context, const Operation& op, const InterpValues& operands) {
  VKHLO_RETURN_IF_ERROR(CheckOperandCount(context, op, operands, 1));
  VKHLO_ASSIGN_OR_RETURN(const Literal* operand, TensorOperand(context, op, operands, 0));
  VKHLO_ASSIGN_OR_RETURN(Dims start, I64VectorAttr(context, op, "start_indices"));
  VKHLO_ASSIGN_OR_RETURN(Dims limit, I64VectorAttr(context, op, "limit_indices"));
  VKHLO_ASSIGN_OR_RETURN(Dims strides, I64VectorAttr(context, op, "strides"));
  return Slice(context, op, *operand, start, limit, strides);
}

StatusOr<InterpValues> EvalRealDynamicSlice(EvalContext& context, const Operation& op, const InterpValues& operands) {
  VKHLO_RETURN_IF_ERROR(CheckOperandCount(context, op, operands, 4));
  VKHLO_ASSIGN_OR_RETURN(const Literal* operand, TensorOperand(context, op, operands, 0));
  Dims values[3];
  const char* names[3] = {"start_indices", "limit_indices", "strides"};
  for (int k = 0; k < 3; ++k) {
    VKHLO_ASSIGN_OR_RETURN(const Literal* t, TensorOperand(context, op, operands, k + 1));
    VKHLO_ASSIGN_OR_RETURN(values[k], IntegerTensorValues(context, op, *t, names[k]));
  }
  return Slice(context, op, *operand, values[0], values[1], values[2]);
}

// The start indices operands[first..] (rank-0 integer tensors), each clamped to
// [0, dim(operand, d) - size[d]].
StatusOr<Dims> ClampedStarts(EvalContext& context, const Operation& op, const InterpValues& operands, size_t first,
                             const Dims& operand_dims, const Dims& sizes) {
  const size_t rank = operand_dims.size();
  if (operands.size() != first + rank) {
    return context.OpError(op, fmt::format("takes {} start indices (one per operand dimension), given {}", rank,
                                           operands.size() < first ? 0 : operands.size() - first));
  }
  Dims starts(rank);
  for (size_t d = 0; d < rank; ++d) {
    VKHLO_ASSIGN_OR_RETURN(const Literal* index, TensorOperand(context, op, operands, first + d));
    if (index->type().rank() != 0 || !ir::IsInteger(index->element_type())) {
      return context.OpError(
          op, fmt::format("start index {} must be a rank-0 integer tensor, found {}", d, index->type().ToString()));
    }
    starts[d] = std::clamp<int64_t>(IndexValue(*index, 0), 0, operand_dims[d] - sizes[d]);
  }
  return starts;
}

StatusOr<InterpValues> EvalDynamicSlice(EvalContext& context, const Operation& op, const InterpValues& operands) {
  VKHLO_ASSIGN_OR_RETURN(const Literal* operand, TensorOperand(context, op, operands, 0));
  VKHLO_ASSIGN_OR_RETURN(Dims sizes, I64VectorAttr(context, op, "slice_sizes"));
  const Dims& od = operand->type().dims();
  if (sizes.size() != od.size()) {
    return context.OpError(op, fmt::format("slice_sizes {} must have {} entries", DimsToString(sizes), od.size()));
  }
  for (size_t d = 0; d < od.size(); ++d) {
    if (sizes[d] < 0 || sizes[d] > od[d]) {
      return context.OpError(op, fmt::format("slice_sizes[{}] = {} is outside [0, {}]", d, sizes[d], od[d]));
    }
  }
  VKHLO_ASSIGN_OR_RETURN(Dims starts, ClampedStarts(context, op, operands, 1, od, sizes));
  Dims limits(od.size()), strides(od.size(), 1);
  for (size_t d = 0; d < od.size(); ++d) limits[d] = starts[d] + sizes[d];
  return Slice(context, op, *operand, starts, limits, strides);
}

StatusOr<InterpValues> EvalDynamicUpdateSlice(EvalContext& context, const Operation& op, const InterpValues& operands) {
  VKHLO_ASSIGN_OR_RETURN(const Literal* operand, TensorOperand(context, op, operands, 0));
  VKHLO_ASSIGN_OR_RETURN(const Literal* update, TensorOperand(context, op, operands, 1));
  const Dims& od = operand->type().dims();
  const Dims& ud = update->type().dims();
  if (update->element_type() != operand->element_type() || ud.size() != od.size()) {
    return context.OpError(op, fmt::format("update {} must have the element type and rank of operand {}",
                                           update->type().ToString(), operand->type().ToString()));
  }
  for (size_t d = 0; d < od.size(); ++d) {
    if (ud[d] > od[d]) {
      return context.OpError(
          op, fmt::format("update dimension {} (size {}) is larger than the operand's ({})", d, ud[d], od[d]));
    }
  }
  VKHLO_ASSIGN_OR_RETURN(Dims starts, ClampedStarts(context, op, operands, 2, od, ud));
  VKHLO_ASSIGN_OR_RETURN(ir::Type type, ResultTensorType(context, op, 0, od, operand->element_type()));
  VKHLO_ASSIGN_OR_RETURN(Literal result, Literal::Create(type));
  VKHLO_ASSIGN_OR_RETURN(std::span<uint8_t> out, result.mutable_raw());
  const Dims result_strides = RowMajorStrides(od);
  StridedCopy(ElementReader(*operand), 0, result_strides, out.data(), 0, result_strides, od);
  int64_t base = 0;
  for (size_t d = 0; d < od.size(); ++d) base += starts[d] * result_strides[d];
  StridedCopy(ElementReader(*update), 0, RowMajorStrides(ud), out.data(), base, result_strides, ud);
  return InterpValues{InterpValue::Tensor(std::move(result))};
}

// result[lo + j * (interior + 1)] = operand[j] where that index is inside the result; every other
// element is the padding value. Negative edge padding drops operand elements.
StatusOr<InterpValues> Pad(EvalContext& context, const Operation& op, const Literal& operand,
                           const Literal& padding_value, const Dims& low, const Dims& high, const Dims& interior) {
  const Dims& od = operand.type().dims();
  const size_t rank = od.size();
  if (padding_value.type().rank() != 0 || padding_value.element_type() != operand.element_type()) {
    return context.OpError(op, fmt::format("padding value {} must be a rank-0 tensor of the operand's element type",
                                           padding_value.type().ToString()));
  }
  if (low.size() != rank || high.size() != rank || interior.size() != rank) {
    return context.OpError(op, fmt::format("edge_padding_low {}, edge_padding_high {} and interior_padding {} must "
                                           "each have {} entries",
                                           DimsToString(low), DimsToString(high), DimsToString(interior), rank));
  }
  Dims result_dims(rank);
  for (size_t d = 0; d < rank; ++d) {
    if (interior[d] < 0) {
      return context.OpError(op, fmt::format("interior_padding[{}] = {} must not be negative", d, interior[d]));
    }
    int64_t size = 0;
    if (__builtin_mul_overflow(std::max<int64_t>(od[d] - 1, 0), interior[d], &size) ||
        __builtin_add_overflow(size, od[d], &size) || __builtin_add_overflow(size, low[d], &size) ||
        __builtin_add_overflow(size, high[d], &size)) {
      return context.OpError(op, fmt::format("padding makes dimension {} overflow", d));
    }
    result_dims[d] = size;
    if (result_dims[d] < 0) {
      return context.OpError(op, fmt::format("padding makes dimension {} negative ({})", d, result_dims[d]));
    }
  }
  VKHLO_ASSIGN_OR_RETURN(ir::Type type, ResultTensorType(context, op, 0, result_dims, operand.element_type()));
  VKHLO_ASSIGN_OR_RETURN(Literal result, Literal::Create(type));
  VKHLO_ASSIGN_OR_RETURN(std::span<uint8_t> out, result.mutable_raw());
  const int64_t eb = ir::StorageBytes(operand.element_type());
  FillElements(out.data(), result.num_elements(), padding_value.raw().data(), eb);
  // Per dimension, the operand indices that land inside the result: j in [first, last), at
  // result index low + j * (interior + 1). Copy that sub-box with the matching strides.
  const Dims operand_strides = RowMajorStrides(od);
  const Dims result_strides = RowMajorStrides(result_dims);
  Dims box(rank), src_strides(rank), dst_strides(rank);
  int64_t src_base = 0, dst_base = 0;
  for (size_t d = 0; d < rank; ++d) {
    const int64_t step = interior[d] + 1;
    // First j with low + j * step >= 0, last j with low + j * step < result_dims[d].
    int64_t first = low[d] >= 0 ? 0 : (-low[d] + step - 1) / step;
    int64_t end = result_dims[d] - low[d] <= 0 ? 0 : (result_dims[d] - low[d] + step - 1) / step;
    end = std::min(end, od[d]);
    box[d] = std::max<int64_t>(end - first, 0);
    src_strides[d] = operand_strides[d];
    dst_strides[d] = result_strides[d] * step;
    src_base += first * operand_strides[d];
    dst_base += (low[d] + first * step) * result_strides[d];
  }
  if (NumElements(box) > 0) {
    StridedCopy(ElementReader(operand), src_base, src_strides, out.data(), dst_base, dst_strides, box);
  }
  return InterpValues{InterpValue::Tensor(std::move(result))};
}

StatusOr<InterpValues> EvalPad(EvalContext& context, const Operation& op, const InterpValues& operands) {
  VKHLO_RETURN_IF_ERROR(CheckOperandCount(context, op, operands, 2));
  VKHLO_ASSIGN_OR_RETURN(const Literal* operand, TensorOperand(context, op, operands, 0));
  VKHLO_ASSIGN_OR_RETURN(const Literal* padding_value, TensorOperand(context, op, operands, 1));
  VKHLO_ASSIGN_OR_RETURN(Dims low, I64VectorAttr(context, op, "edge_padding_low"));
  VKHLO_ASSIGN_OR_RETURN(Dims high, I64VectorAttr(context, op, "edge_padding_high"));
  VKHLO_ASSIGN_OR_RETURN(Dims interior, I64VectorAttrOr(context, op, "interior_padding", Dims(low.size(), 0)));
  return Pad(context, op, *operand, *padding_value, low, high, interior);
}

StatusOr<InterpValues> EvalDynamicPad(EvalContext& context, const Operation& op, const InterpValues& operands) {
  VKHLO_RETURN_IF_ERROR(CheckOperandCount(context, op, operands, 5));
  VKHLO_ASSIGN_OR_RETURN(const Literal* operand, TensorOperand(context, op, operands, 0));
  VKHLO_ASSIGN_OR_RETURN(const Literal* padding_value, TensorOperand(context, op, operands, 1));
  Dims values[3];
  const char* names[3] = {"edge_padding_low", "edge_padding_high", "interior_padding"};
  for (int k = 0; k < 3; ++k) {
    VKHLO_ASSIGN_OR_RETURN(const Literal* t, TensorOperand(context, op, operands, k + 2));
    VKHLO_ASSIGN_OR_RETURN(values[k], IntegerTensorValues(context, op, *t, names[k]));
  }
  return Pad(context, op, *operand, *padding_value, values[0], values[1], values[2]);
}

}  // namespace

void RegisterSlicingOps(OpRegistry& r) {
  using ir::OpCode;
  r.Register(OpCode::kSlice, EvalSlice);
  r.Register(OpCode::kRealDynamicSlice, EvalRealDynamicSlice);
  r.Register(OpCode::kDynamicSlice, EvalDynamicSlice);
  r.Register(OpCode::kDynamicUpdateSlice, EvalDynamicUpdateSlice);
  r.Register(OpCode::kPad, EvalPad);
  r.Register(OpCode::kDynamicPad, EvalDynamicPad);
}

}  // namespace vkhlo::interp
