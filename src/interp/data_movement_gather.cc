// gather and dynamic_gather: slices of `operand` at offsets read from `start_indices`.
//
// For every batch position (a result index restricted to the non-offset dimensions) the start
// index is read from start_indices, each component clamped to [0, dim - slice_size] as the spec
// says, the batching dimensions take the batch position's index, and the whole slice window is
// copied with strides. Linear in the result size.
#include <fmt/format.h>

#include <algorithm>

#include "interp/data_movement.h"
#include "interp/shape_util.h"

namespace vkhlo::interp {
namespace {

using ir::Literal;
using ir::Operation;

bool Contains(const Dims& dims, int64_t d) { return std::find(dims.begin(), dims.end(), d) != dims.end(); }

StatusOr<InterpValues> Gather(EvalContext& context, const Operation& op, const Literal& operand, const Literal& indices,
                              const ir::GatherDimensionNumbers& dn, const Dims& slice_sizes) {
  const Dims& od = operand.type().dims();
  const Dims& id = indices.type().dims();
  const int64_t operand_rank = operand.type().rank();
  const int64_t indices_rank = indices.type().rank();
  const int64_t ivd = dn.index_vector_dim;
  if (!ir::IsInteger(indices.element_type())) {
    return context.OpError(op, "start_indices must be integers, found " + indices.type().ToString());
  }
  if (ivd < 0 || ivd > indices_rank) {
    return context.OpError(op, fmt::format("index_vector_dim {} is outside [0, {}]", ivd, indices_rank));
  }
  const int64_t batch_rank = indices_rank - (ivd < indices_rank ? 1 : 0);
  const int64_t result_rank = batch_rank + static_cast<int64_t>(dn.offset_dims.size());
  VKHLO_RETURN_IF_ERROR(CheckDimensionList(context, op, "offset_dims", dn.offset_dims, result_rank, true));
  VKHLO_RETURN_IF_ERROR(
      CheckDimensionList(context, op, "collapsed_slice_dims", dn.collapsed_slice_dims, operand_rank, true));
  VKHLO_RETURN_IF_ERROR(
      CheckDimensionList(context, op, "operand_batching_dims", dn.operand_batching_dims, operand_rank, true));
  VKHLO_RETURN_IF_ERROR(
      CheckDimensionList(context, op, "start_indices_batching_dims", dn.start_indices_batching_dims, indices_rank));
  VKHLO_RETURN_IF_ERROR(CheckDimensionList(context, op, "start_index_map", dn.start_index_map, operand_rank));
  if (static_cast<int64_t>(dn.offset_dims.size() + dn.collapsed_slice_dims.size() + dn.operand_batching_dims.size()) !=
      operand_rank) {
    return context.OpError(op, fmt::format("offset_dims, collapsed_slice_dims and operand_batching_dims must "
                                           "together have {} entries (the operand rank)",
                                           operand_rank));
  }
  for (int64_t d : dn.collapsed_slice_dims) {
    if (Contains(dn.operand_batching_dims, d)) {
      return context.OpError(op, fmt::format("dimension {} is both collapsed and a batching dimension", d));
    }
  }
  if (dn.operand_batching_dims.size() != dn.start_indices_batching_dims.size()) {
    return context.OpError(op, "operand_batching_dims and start_indices_batching_dims must have the same size");
  }
  for (size_t i = 0; i < dn.operand_batching_dims.size(); ++i) {
    const int64_t s = dn.start_indices_batching_dims[i];
    if (s == ivd) return context.OpError(op, "start_indices_batching_dims must not contain index_vector_dim");
    if (id[s] != od[dn.operand_batching_dims[i]]) {
      return context.OpError(op, fmt::format("batching dimension sizes differ: operand dimension {} has {}, "
                                             "start_indices dimension {} has {}",
                                             dn.operand_batching_dims[i], od[dn.operand_batching_dims[i]], s, id[s]));
    }
  }
  const int64_t index_count = ivd < indices_rank ? id[ivd] : 1;
  if (static_cast<int64_t>(dn.start_index_map.size()) != index_count) {
    return context.OpError(op, fmt::format("start_index_map has {} entries but each start index has {}",
                                           dn.start_index_map.size(), index_count));
  }
  for (int64_t d : dn.start_index_map) {
    if (Contains(dn.operand_batching_dims, d)) {
      return context.OpError(op, fmt::format("start_index_map must not contain batching dimension {}", d));
    }
  }
  if (static_cast<int64_t>(slice_sizes.size()) != operand_rank) {
    return context.OpError(op,
                           fmt::format("slice_sizes {} must have {} entries", DimsToString(slice_sizes), operand_rank));
  }
  for (int64_t d = 0; d < operand_rank; ++d) {
    if (slice_sizes[d] < 0 || slice_sizes[d] > od[d]) {
      return context.OpError(op, fmt::format("slice_sizes[{}] = {} is outside [0, {}]", d, slice_sizes[d], od[d]));
    }
    const bool collapsed = Contains(dn.collapsed_slice_dims, d) || Contains(dn.operand_batching_dims, d);
    if (collapsed && slice_sizes[d] > 1) {
      return context.OpError(op, fmt::format("slice_sizes[{}] = {} must be at most 1 for a collapsed or batching "
                                             "dimension",
                                             d, slice_sizes[d]));
    }
  }

  // Result shape: batch dimensions (start_indices without index_vector_dim) at the non-offset
  // result axes, window sizes (slice_sizes without collapsed/batching dims) at offset_dims.
  Dims batch_sizes, window_operand_dims;
  for (int64_t d = 0; d < indices_rank; ++d) {
    if (d != ivd) batch_sizes.push_back(id[d]);
  }
  for (int64_t d = 0; d < operand_rank; ++d) {
    if (!Contains(dn.collapsed_slice_dims, d) && !Contains(dn.operand_batching_dims, d)) {
      window_operand_dims.push_back(d);
    }
  }
  Dims result_dims(result_rank), batch_result_dims;
  for (int64_t r = 0, b = 0, w = 0; r < result_rank; ++r) {
    if (Contains(dn.offset_dims, r)) {
      result_dims[r] = slice_sizes[window_operand_dims[w++]];
    } else {
      result_dims[r] = batch_sizes[b++];
      batch_result_dims.push_back(r);
    }
  }
  VKHLO_ASSIGN_OR_RETURN(ir::Type type, ResultTensorType(context, op, 0, result_dims, operand.element_type()));
  VKHLO_ASSIGN_OR_RETURN(Literal result, Literal::Create(type));
  if (result.num_elements() == 0) return InterpValues{InterpValue::Tensor(std::move(result))};
  for (int64_t d = 0; d < operand_rank; ++d) {
    if (slice_sizes[d] == 0) {
      return context.OpError(op, fmt::format("slice_sizes[{}] is 0 for a collapsed dimension: the result has "
                                             "elements but the slices have none",
                                             d));
    }
  }
  VKHLO_ASSIGN_OR_RETURN(std::span<uint8_t> out, result.mutable_raw());

  const Dims operand_strides = RowMajorStrides(od);
  const Dims indices_strides = RowMajorStrides(id);
  const Dims result_strides = RowMajorStrides(result_dims);
  Dims window(window_operand_dims.size()), src_strides(window.size()), dst_strides(window.size());
  for (size_t w = 0; w < window.size(); ++w) {
    window[w] = slice_sizes[window_operand_dims[w]];
    src_strides[w] = operand_strides[window_operand_dims[w]];
    dst_strides[w] = result_strides[dn.offset_dims[w]];
  }
  // Batch position b indexes start_indices dimension b (b < ivd) or b + 1.
  auto indices_dim = [&](size_t b) { return static_cast<int64_t>(b) < ivd ? b : b + 1; };
  const int64_t index_stride = ivd < indices_rank ? indices_strides[ivd] : 0;
  const ElementReader reader(operand);
  ForEachMultiIndex(batch_sizes, [&](std::span<const int64_t> batch) {
    int64_t dst_base = 0, indices_base = 0, src_base = 0;
    for (size_t b = 0; b < batch.size(); ++b) {
      dst_base += batch[b] * result_strides[batch_result_dims[b]];
      indices_base += batch[b] * indices_strides[indices_dim(b)];
    }
    for (size_t k = 0; k < dn.start_index_map.size(); ++k) {
      const int64_t d = dn.start_index_map[k];
      const int64_t start = IndexValue(indices, indices_base + static_cast<int64_t>(k) * index_stride);
      src_base += std::clamp<int64_t>(start, 0, od[d] - slice_sizes[d]) * operand_strides[d];
    }
    for (size_t i = 0; i < dn.operand_batching_dims.size(); ++i) {
      const int64_t s = dn.start_indices_batching_dims[i];
      const int64_t b = s < ivd ? s : s - 1;
      src_base += batch[b] * operand_strides[dn.operand_batching_dims[i]];
    }
    StridedCopy(reader, src_base, src_strides, out.data(), dst_base, dst_strides, window);
  });
  return InterpValues{InterpValue::Tensor(std::move(result))};
}

const ir::GatherDimensionNumbers* GatherNumbers(const Operation& op) {
  const ir::Attribute* attr = op.attribute("dimension_numbers");
  return attr ? attr->as<ir::GatherDimensionNumbers>() : nullptr;
}

StatusOr<InterpValues> EvalGather(EvalContext& context, const Operation& op, const InterpValues& operands) {
  VKHLO_RETURN_IF_ERROR(CheckOperandCount(context, op, operands, 2));
  VKHLO_ASSIGN_OR_RETURN(const Literal* operand, TensorOperand(context, op, operands, 0));
  VKHLO_ASSIGN_OR_RETURN(const Literal* indices, TensorOperand(context, op, operands, 1));
  const ir::GatherDimensionNumbers* dn = GatherNumbers(op);
  if (dn == nullptr) return context.OpError(op, "has no #stablehlo.gather `dimension_numbers`");
  VKHLO_ASSIGN_OR_RETURN(Dims slice_sizes, I64VectorAttr(context, op, "slice_sizes"));
  return Gather(context, op, *operand, *indices, *dn, slice_sizes);
}

StatusOr<InterpValues> EvalDynamicGather(EvalContext& context, const Operation& op, const InterpValues& operands) {
  VKHLO_RETURN_IF_ERROR(CheckOperandCount(context, op, operands, 3));
  VKHLO_ASSIGN_OR_RETURN(const Literal* operand, TensorOperand(context, op, operands, 0));
  VKHLO_ASSIGN_OR_RETURN(const Literal* indices, TensorOperand(context, op, operands, 1));
  VKHLO_ASSIGN_OR_RETURN(const Literal* sizes, TensorOperand(context, op, operands, 2));
  const ir::GatherDimensionNumbers* dn = GatherNumbers(op);
  if (dn == nullptr) return context.OpError(op, "has no #stablehlo.gather `dimension_numbers`");
  VKHLO_ASSIGN_OR_RETURN(Dims slice_sizes, IntegerTensorValues(context, op, *sizes, "slice_sizes"));
  return Gather(context, op, *operand, *indices, *dn, slice_sizes);
}

}  // namespace

void RegisterGatherOps(OpRegistry& r) {
  r.Register(ir::OpCode::kGather, EvalGather);
  r.Register(ir::OpCode::kDynamicGather, EvalDynamicGather);
}

}  // namespace vkhlo::interp
