// gather, dynamic_gather and scatter: the dimension-number bookkeeping of the spec (including
// the batching dimensions of newer StableHLO).
#include <fmt/format.h>

#include <algorithm>

#include "verify/op_rules.h"
#include "verify/shape_inference.h"

namespace vkhlo::verify {
namespace {

using ir::OpCode;
using ir::Type;

constexpr uint32_t kAny = kAnyElement;

bool Contains(const std::vector<int64_t>& v, int64_t x) { return std::find(v.begin(), v.end(), x) != v.end(); }

std::vector<int64_t> Concat(const std::vector<int64_t>& a, const std::vector<int64_t>& b) {
  std::vector<int64_t> out = a;
  out.insert(out.end(), b.begin(), b.end());
  return out;
}

// The checks gather and scatter share on the index side: index_vector_dim, the size of the
// index map, and the batching dimensions of the indices. Returns the "batch" sizes of the
// indices (their shape without index_vector_dim).
struct IndexSide {
  const char* ivd_label;
  const char* map_name;
  const char* map_size_label;
  const char* operand_batching_name;
  const char* indices_batching_name;
};

StatusOr<std::vector<int64_t>> CheckIndexSide(const OpContext& ctx, const IndexSide& names, const Type& indices,
                                              const Type& operand, int64_t index_vector_dim,
                                              const std::vector<int64_t>& index_map,
                                              const std::vector<int64_t>& operand_batching,
                                              const std::vector<int64_t>& indices_batching) {
  const int64_t rank = indices.rank();
  if (index_vector_dim < 0 || index_vector_dim > rank) {
    return ctx.Error(fmt::format("index_vector_dim must be in range ({})", names.ivd_label),
                     fmt::format("a value in [0, {}]", rank), fmt::format("{}", index_vector_dim));
  }
  const int64_t map_size = index_vector_dim < rank ? indices.dim(index_vector_dim) : 1;
  if (!ir::IsDynamicDim(map_size)) {
    VKHLO_RETURN_IF_ERROR(ctx.CheckSize(index_map, map_size, names.map_name, names.map_size_label));
  }
  VKHLO_RETURN_IF_ERROR(ctx.CheckInRange(indices_batching, 0, rank, names.indices_batching_name, ""));
  VKHLO_RETURN_IF_ERROR(ctx.CheckUnique(indices_batching, names.indices_batching_name, ""));
  if (Contains(indices_batching, index_vector_dim)) {
    return ctx.Error(fmt::format("{} must not contain index_vector_dim", names.indices_batching_name),
                     fmt::format("values other than {}", index_vector_dim), IntListToString(indices_batching));
  }
  if (indices_batching.size() != operand_batching.size()) {
    return ctx.Error(fmt::format("{} and {} must have the same size", names.operand_batching_name,
                                 names.indices_batching_name),
                     fmt::format("{} values", operand_batching.size()), IntListToString(indices_batching));
  }
  for (size_t i = 0; i < operand_batching.size(); ++i) {
    // Both lists were range-checked by the callers.
    if (!CompatibleDim(operand.dim(operand_batching[i]), indices.dim(indices_batching[i]))) {
      return ctx.Error("batching dimensions of operand and indices must have the same sizes",
                       fmt::format("{}", operand.dim(operand_batching[i])),
                       fmt::format("{}", indices.dim(indices_batching[i])));
    }
  }
  std::vector<int64_t> batch_sizes;
  for (int64_t d = 0; d < rank; ++d) {
    if (d != index_vector_dim) batch_sizes.push_back(indices.dim(d));
  }
  return batch_sizes;
}

// Result dims of a gather whose slice_sizes are known.
StatusOr<std::vector<int64_t>> GatherDims(const OpContext& ctx, const Type& operand, const Type& indices,
                                          const ir::GatherDimensionNumbers& d, const std::vector<int64_t>& slice_sizes) {
  const int64_t rank = operand.rank();
  VKHLO_RETURN_IF_ERROR(ctx.CheckSize(slice_sizes, rank, "slice_sizes", "C11"));
  for (int64_t i = 0; i < rank; ++i) {
    if (slice_sizes[i] < 0 || (!operand.is_dynamic_dim(i) && slice_sizes[i] > operand.dim(i))) {
      return ctx.Error(fmt::format("slice_sizes[{}] must be in [0, dim(operand, {})] (C12)", i, i),
                       fmt::format("a value in [0, {}]", operand.dim(i)), fmt::format("{}", slice_sizes[i]));
    }
  }
  VKHLO_RETURN_IF_ERROR(ctx.CheckUnique(d.offset_dims, "offset_dims", "C4"));
  VKHLO_RETURN_IF_ERROR(ctx.CheckSorted(d.offset_dims, "offset_dims", "C4"));
  VKHLO_RETURN_IF_ERROR(ctx.CheckSorted(d.collapsed_slice_dims, "collapsed_slice_dims", "C6"));
  VKHLO_RETURN_IF_ERROR(ctx.CheckInRange(d.collapsed_slice_dims, 0, rank, "collapsed_slice_dims", "C7"));
  VKHLO_RETURN_IF_ERROR(ctx.CheckSorted(d.operand_batching_dims, "operand_batching_dims", ""));
  VKHLO_RETURN_IF_ERROR(ctx.CheckInRange(d.operand_batching_dims, 0, rank, "operand_batching_dims", ""));
  VKHLO_RETURN_IF_ERROR(ctx.CheckUnique(Concat(d.collapsed_slice_dims, d.operand_batching_dims),
                                        "collapsed_slice_dims and operand_batching_dims", "C6"));
  for (int64_t dim : Concat(d.collapsed_slice_dims, d.operand_batching_dims)) {
    if (slice_sizes[dim] > 1) {
      return ctx.Error(fmt::format("slice_sizes[{}] of a collapsed or batching dimension must be at most 1 (C8)", dim),
                       "0 or 1", fmt::format("{}", slice_sizes[dim]));
    }
  }
  VKHLO_RETURN_IF_ERROR(ctx.CheckUnique(Concat(d.start_index_map, d.operand_batching_dims),
                                        "start_index_map and operand_batching_dims", "C9"));
  VKHLO_RETURN_IF_ERROR(ctx.CheckInRange(d.start_index_map, 0, rank, "start_index_map", "C10"));
  const int64_t dims_named = static_cast<int64_t>(d.offset_dims.size() + d.collapsed_slice_dims.size() +
                                                  d.operand_batching_dims.size());
  if (dims_named != rank) {
    return ctx.Error("rank(operand) must be size(offset_dims) + size(collapsed_slice_dims) + "
                     "size(operand_batching_dims) (C1)",
                     fmt::format("{}", rank), fmt::format("{}", dims_named));
  }
  static constexpr IndexSide kNames = {"C2", "start_index_map", "C3", "operand_batching_dims",
                                       "start_indices_batching_dims"};
  VKHLO_ASSIGN_OR_RETURN(auto batch_sizes,
                         CheckIndexSide(ctx, kNames, indices, operand, d.index_vector_dim, d.start_index_map,
                                        d.operand_batching_dims, d.start_indices_batching_dims));
  std::vector<int64_t> offset_sizes;
  for (int64_t i = 0; i < rank; ++i) {
    if (!Contains(d.collapsed_slice_dims, i) && !Contains(d.operand_batching_dims, i)) {
      offset_sizes.push_back(slice_sizes[i]);
    }
  }
  const int64_t result_rank = static_cast<int64_t>(batch_sizes.size() + d.offset_dims.size());
  VKHLO_RETURN_IF_ERROR(ctx.CheckInRange(d.offset_dims, 0, result_rank, "offset_dims", "C5"));
  std::vector<int64_t> dims;
  size_t next_offset = 0, next_batch = 0;
  for (int64_t i = 0; i < result_rank; ++i) {
    if (Contains(d.offset_dims, i)) {
      dims.push_back(next_offset < offset_sizes.size() ? offset_sizes[next_offset] : 0);
      ++next_offset;
    } else {
      dims.push_back(next_batch < batch_sizes.size() ? batch_sizes[next_batch] : 0);
      ++next_batch;
    }
  }
  return dims;
}

StatusOr<TypeList> InferGather(const OpContext& ctx) {
  VKHLO_RETURN_IF_ERROR(ctx.RequireTensor(0, kAny, "operand (I1)"));
  VKHLO_RETURN_IF_ERROR(ctx.RequireTensor(1, kInt, "start_indices (I2)"));
  VKHLO_ASSIGN_OR_RETURN(const ir::GatherDimensionNumbers* d,
                         ctx.Struct<ir::GatherDimensionNumbers>("dimension_numbers", "#stablehlo.gather<...>", true));
  VKHLO_ASSIGN_OR_RETURN(auto slice_sizes, ctx.Ints("slice_sizes"));
  VKHLO_RETURN_IF_ERROR(ctx.Bool("indices_are_sorted", false).status());
  VKHLO_ASSIGN_OR_RETURN(auto dims, GatherDims(ctx, ctx.operand(0), ctx.operand(1), *d, slice_sizes));
  return TypeList{WithDims(ctx.operand(0), dims)};
}

Status VerifyDynamicGather(const OpContext& ctx) {
  VKHLO_RETURN_IF_ERROR(ctx.RequireTensor(0, kAny, "operand"));
  VKHLO_RETURN_IF_ERROR(ctx.RequireTensor(1, kInt, "start_indices"));
  VKHLO_RETURN_IF_ERROR(RequireShapeOperand(ctx, 2, ctx.operand(0).rank(), "slice_sizes"));
  VKHLO_RETURN_IF_ERROR(ctx.RequireResultTensor(0, kAny, "result"));
  VKHLO_ASSIGN_OR_RETURN(const ir::GatherDimensionNumbers* d,
                         ctx.Struct<ir::GatherDimensionNumbers>("dimension_numbers", "#stablehlo.gather<...>", true));
  if (!CompatibleElement(ctx.operand(0), ctx.result(0))) {
    return ctx.Error("operand and result must have the same element type", ElementName(ctx.operand(0)),
                     ElementName(ctx.result(0)));
  }
  auto slice_sizes = ConstantOperandInts(ctx, 2);
  if (!slice_sizes) return OkStatus();
  VKHLO_ASSIGN_OR_RETURN(auto dims, GatherDims(ctx, ctx.operand(0), ctx.operand(1), *d, *slice_sizes));
  if (!CompatibleDims(dims, ctx.result(0).dims())) {
    return ctx.Error("result shape must be the gathered shape", IntListToString(dims), ctx.result(0).ToString());
  }
  return OkStatus();
}

StatusOr<TypeList> InferScatter(const OpContext& ctx) {
  const size_t n_operands = ctx.num_operands();
  if (n_operands % 2 == 0) {
    return ctx.Error("requires as many updates as inputs (C5)", "an odd number of operands (N inputs, "
                     "scatter_indices, N updates)", fmt::format("{} operands", n_operands));
  }
  const size_t n = (n_operands - 1) / 2;
  VKHLO_RETURN_IF_ERROR(ctx.RequireTensors(0, n, kAny, "inputs (I1)"));
  VKHLO_RETURN_IF_ERROR(ctx.RequireTensor(n, kInt, "scatter_indices (I2)"));
  VKHLO_RETURN_IF_ERROR(ctx.RequireTensors(n + 1, n_operands, kAny, "updates (I3)"));
  std::span<const Type> inputs = ctx.operands().subspan(0, n);
  std::span<const Type> updates = ctx.operands().subspan(n + 1, n);
  const Type& indices = ctx.operand(n);
  for (size_t k = 0; k < n; ++k) {
    if (!SameShape(inputs[0], inputs[k])) {
      return ctx.Error("inputs must have the same shape (C1)", inputs[0].ToString(), inputs[k].ToString());
    }
    if (!SameShape(updates[0], updates[k])) {
      return ctx.Error("updates must have the same shape (C3)", updates[0].ToString(), updates[k].ToString());
    }
    if (!CompatibleElement(inputs[k], updates[k])) {
      return ctx.Error(fmt::format("updates[{}] must have the element type of inputs[{}] (C6)", k, k),
                       ElementName(inputs[k]), ElementName(updates[k]));
    }
  }
  VKHLO_ASSIGN_OR_RETURN(
      const ir::ScatterDimensionNumbers* d,
      ctx.Struct<ir::ScatterDimensionNumbers>("scatter_dimension_numbers", "#stablehlo.scatter<...>", true));
  VKHLO_RETURN_IF_ERROR(ctx.Bool("indices_are_sorted", false).status());
  VKHLO_RETURN_IF_ERROR(ctx.Bool("unique_indices", false).status());
  const Type& input = inputs[0];
  const Type& update = updates[0];
  const int64_t rank = input.rank();
  VKHLO_RETURN_IF_ERROR(ctx.CheckUnique(d->update_window_dims, "update_window_dims", "C7"));
  VKHLO_RETURN_IF_ERROR(ctx.CheckSorted(d->update_window_dims, "update_window_dims", "C7"));
  VKHLO_RETURN_IF_ERROR(ctx.CheckInRange(d->update_window_dims, 0, update.rank(), "update_window_dims", "C8"));
  VKHLO_RETURN_IF_ERROR(ctx.CheckSorted(d->inserted_window_dims, "inserted_window_dims", "C9"));
  VKHLO_RETURN_IF_ERROR(ctx.CheckInRange(d->inserted_window_dims, 0, rank, "inserted_window_dims", "C10"));
  VKHLO_RETURN_IF_ERROR(ctx.CheckSorted(d->input_batching_dims, "input_batching_dims", ""));
  VKHLO_RETURN_IF_ERROR(ctx.CheckInRange(d->input_batching_dims, 0, rank, "input_batching_dims", ""));
  VKHLO_RETURN_IF_ERROR(ctx.CheckUnique(Concat(d->inserted_window_dims, d->input_batching_dims),
                                        "inserted_window_dims and input_batching_dims", "C9"));
  VKHLO_RETURN_IF_ERROR(ctx.CheckUnique(Concat(d->scatter_dims_to_operand_dims, d->input_batching_dims),
                                        "scatter_dims_to_operand_dims and input_batching_dims", "C12"));
  VKHLO_RETURN_IF_ERROR(
      ctx.CheckInRange(d->scatter_dims_to_operand_dims, 0, rank, "scatter_dims_to_operand_dims", "C13"));
  const int64_t dims_named = static_cast<int64_t>(d->update_window_dims.size() + d->inserted_window_dims.size() +
                                                  d->input_batching_dims.size());
  if (dims_named != rank) {
    return ctx.Error("rank(inputs[0]) must be size(update_window_dims) + size(inserted_window_dims) + "
                     "size(input_batching_dims) (C2)",
                     fmt::format("{}", rank), fmt::format("{}", dims_named));
  }
  static constexpr IndexSide kNames = {"C14", "scatter_dims_to_operand_dims", "C11", "input_batching_dims",
                                       "scatter_indices_batching_dims"};
  VKHLO_ASSIGN_OR_RETURN(auto scatter_sizes,
                         CheckIndexSide(ctx, kNames, indices, input, d->index_vector_dim,
                                        d->scatter_dims_to_operand_dims, d->input_batching_dims,
                                        d->scatter_indices_batching_dims));
  // (C4) shape(updates[0]) = combine(update_scatter_dim_sizes, update_window_dim_sizes).
  std::vector<int64_t> window_bounds;
  for (int64_t i = 0; i < rank; ++i) {
    if (!Contains(d->inserted_window_dims, i) && !Contains(d->input_batching_dims, i)) {
      window_bounds.push_back(input.dim(i));
    }
  }
  const int64_t expected_rank = static_cast<int64_t>(scatter_sizes.size() + d->update_window_dims.size());
  if (update.rank() != expected_rank) {
    return ctx.Error("updates must have rank size(update_window_dims) + the scatter indices' batch rank (C4)",
                     fmt::format("rank {}", expected_rank), update.ToString());
  }
  size_t next_window = 0, next_scatter = 0;
  for (int64_t i = 0; i < update.rank(); ++i) {
    if (Contains(d->update_window_dims, i)) {
      const int64_t bound = next_window < window_bounds.size() ? window_bounds[next_window] : 0;
      ++next_window;
      if (!update.is_dynamic_dim(i) && !ir::IsDynamicDim(bound) && update.dim(i) > bound) {
        return ctx.Error(fmt::format("updates dimension {} must fit in the input window (C4)", i),
                         fmt::format("a size <= {}", bound), fmt::format("{}", update.dim(i)));
      }
    } else {
      const int64_t size = next_scatter < scatter_sizes.size() ? scatter_sizes[next_scatter] : -1;
      ++next_scatter;
      if (!CompatibleDim(update.dim(i), size)) {
        return ctx.Error(fmt::format("updates dimension {} must match the scatter indices (C4)", i),
                         fmt::format("{}", size), fmt::format("{}", update.dim(i)));
      }
    }
  }
  VKHLO_ASSIGN_OR_RETURN(RegionSignature body, ctx.Region(0, "update_computation"));
  VKHLO_ASSIGN_OR_RETURN(auto accumulators, ctx.CheckReducerType(body, inputs, "update_computation", "C15"));
  TypeList results;
  for (size_t k = 0; k < n; ++k) {
    results.push_back(accumulators[k] == ScalarOf(inputs[k]) ? inputs[k] : accumulators[k].WithDims(inputs[k].dims()));
  }
  return results;
}

constexpr OpRule kRules[] = {
    {OpCode::kGather, InferGather, nullptr, "result type must be the gathered shape of the operand (C13, C15)",
     ResultMatch::kCompatible},
    {OpCode::kDynamicGather, nullptr, VerifyDynamicGather},
    {OpCode::kScatter, InferScatter, nullptr, "result types must match the inputs' (C16)", ResultMatch::kCompatible},
};

}  // namespace

std::span<const OpRule> GatherScatterRules() { return kRules; }

}  // namespace vkhlo::verify
