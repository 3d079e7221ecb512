// scatter: results are copies of `inputs` where the elements addressed through
// `scatter_indices` are combined with `updates` by the update computation (a region evaluated on
// rank-0 tensors), variadic over inputs/updates.
//
// Updates are applied one element at a time in row-major order of the update index space (a
// valid schedule per the spec; it makes repeated indices deterministic). An update element whose
// result index falls outside the result is skipped, as the StableHLO reference interpreter does
// (the spec leaves it implementation-defined); start indices are not clamped.
#include <fmt/format.h>

#include <algorithm>

#include "interp/data_movement.h"
#include "interp/shape_util.h"

namespace vkhlo::interp {
namespace {

using ir::Literal;
using ir::Operation;

bool Contains(const Dims& dims, int64_t d) { return std::find(dims.begin(), dims.end(), d) != dims.end(); }

StatusOr<InterpValues> EvalScatter(EvalContext& context, const Operation& op, const InterpValues& operands) {
  if (operands.size() < 3 || operands.size() % 2 == 0) {
    return context.OpError(
        op, fmt::format("takes N inputs, scatter_indices and N updates; given {} operands", operands.size()));
  }
  const size_t n = (operands.size() - 1) / 2;
  std::vector<const Literal*> inputs(n), updates(n);
  for (size_t k = 0; k < n; ++k) {
    VKHLO_ASSIGN_OR_RETURN(inputs[k], TensorOperand(context, op, operands, k));
    VKHLO_ASSIGN_OR_RETURN(updates[k], TensorOperand(context, op, operands, n + 1 + k));
  }
  VKHLO_ASSIGN_OR_RETURN(const Literal* indices, TensorOperand(context, op, operands, n));
  const ir::Attribute* attr = op.attribute("scatter_dimension_numbers");
  const ir::ScatterDimensionNumbers* dn = attr ? attr->as<ir::ScatterDimensionNumbers>() : nullptr;
  if (dn == nullptr) return context.OpError(op, "has no #stablehlo.scatter `scatter_dimension_numbers`");
  if (op.num_regions() != 1) return context.OpError(op, "needs one update_computation region");

  const Dims& od = inputs[0]->type().dims();
  const Dims& ud = updates[0]->type().dims();
  const Dims& id = indices->type().dims();
  const int64_t input_rank = inputs[0]->type().rank();
  const int64_t update_rank = updates[0]->type().rank();
  const int64_t indices_rank = indices->type().rank();
  const int64_t ivd = dn->index_vector_dim;
  for (size_t k = 0; k < n; ++k) {
    if (inputs[k]->type().dims() != od || updates[k]->type().dims() != ud ||
        updates[k]->element_type() != inputs[k]->element_type()) {
      return context.OpError(op, fmt::format("inputs must share one shape, updates another, and updates[{}] must have "
                                             "the element type of inputs[{}]",
                                             k, k));
    }
  }
  if (!ir::IsInteger(indices->element_type())) {
    return context.OpError(op, "scatter_indices must be integers, found " + indices->type().ToString());
  }
  if (ivd < 0 || ivd > indices_rank) {
    return context.OpError(op, fmt::format("index_vector_dim {} is outside [0, {}]", ivd, indices_rank));
  }
  VKHLO_RETURN_IF_ERROR(
      CheckDimensionList(context, op, "update_window_dims", dn->update_window_dims, update_rank, true));
  VKHLO_RETURN_IF_ERROR(
      CheckDimensionList(context, op, "inserted_window_dims", dn->inserted_window_dims, input_rank, true));
  VKHLO_RETURN_IF_ERROR(
      CheckDimensionList(context, op, "input_batching_dims", dn->input_batching_dims, input_rank, true));
  VKHLO_RETURN_IF_ERROR(CheckDimensionList(context, op, "scatter_indices_batching_dims",
                                           dn->scatter_indices_batching_dims, indices_rank));
  VKHLO_RETURN_IF_ERROR(
      CheckDimensionList(context, op, "scatter_dims_to_operand_dims", dn->scatter_dims_to_operand_dims, input_rank));
  if (static_cast<int64_t>(dn->update_window_dims.size() + dn->inserted_window_dims.size() +
                           dn->input_batching_dims.size()) != input_rank) {
    return context.OpError(op, fmt::format("update_window_dims, inserted_window_dims and input_batching_dims must "
                                           "together have {} entries (the input rank)",
                                           input_rank));
  }
  for (int64_t d : dn->inserted_window_dims) {
    if (Contains(dn->input_batching_dims, d)) {
      return context.OpError(op, fmt::format("dimension {} is both an inserted window and a batching dimension", d));
    }
  }
  if (dn->input_batching_dims.size() != dn->scatter_indices_batching_dims.size()) {
    return context.OpError(op, "input_batching_dims and scatter_indices_batching_dims must have the same size");
  }
  for (size_t i = 0; i < dn->input_batching_dims.size(); ++i) {
    const int64_t s = dn->scatter_indices_batching_dims[i];
    if (s == ivd) return context.OpError(op, "scatter_indices_batching_dims must not contain index_vector_dim");
    if (id[s] != od[dn->input_batching_dims[i]]) {
      return context.OpError(op, fmt::format("batching dimension sizes differ: input dimension {} has {}, "
                                             "scatter_indices dimension {} has {}",
                                             dn->input_batching_dims[i], od[dn->input_batching_dims[i]], s, id[s]));
    }
  }
  const int64_t index_count = ivd < indices_rank ? id[ivd] : 1;
  if (static_cast<int64_t>(dn->scatter_dims_to_operand_dims.size()) != index_count) {
    return context.OpError(op, fmt::format("scatter_dims_to_operand_dims has {} entries but each index has {}",
                                           dn->scatter_dims_to_operand_dims.size(), index_count));
  }
  for (int64_t d : dn->scatter_dims_to_operand_dims) {
    if (Contains(dn->input_batching_dims, d)) {
      return context.OpError(op, fmt::format("scatter_dims_to_operand_dims must not contain batching dimension {}", d));
    }
  }
  // Update shape: scatter dims (scatter_indices without index_vector_dim) at the non-window
  // update axes, window sizes (at most the input's, without inserted/batching dims) at the rest.
  Dims indices_batch_dims, update_scatter_dims, window_input_dims;
  for (int64_t d = 0; d < indices_rank; ++d) {
    if (d != ivd) indices_batch_dims.push_back(d);
  }
  for (int64_t d = 0; d < update_rank; ++d) {
    if (!Contains(dn->update_window_dims, d)) update_scatter_dims.push_back(d);
  }
  for (int64_t d = 0; d < input_rank; ++d) {
    if (!Contains(dn->inserted_window_dims, d) && !Contains(dn->input_batching_dims, d)) window_input_dims.push_back(d);
  }
  bool shape_ok = update_scatter_dims.size() == indices_batch_dims.size();
  for (size_t b = 0; shape_ok && b < update_scatter_dims.size(); ++b) {
    shape_ok = ud[update_scatter_dims[b]] == id[indices_batch_dims[b]];
  }
  for (size_t w = 0; shape_ok && w < window_input_dims.size(); ++w) {
    const int64_t size = ud[dn->update_window_dims[w]];
    shape_ok = size >= 0 && size <= od[window_input_dims[w]];
  }
  if (!shape_ok) {
    return context.OpError(op, fmt::format("updates shape {} does not fit scatter_indices {} and inputs {}",
                                           DimsToString(ud), DimsToString(id), DimsToString(od)));
  }

  std::vector<Literal> results;
  std::vector<ir::ElementType> element_types;
  const Dims input_strides = RowMajorStrides(od);
  for (size_t k = 0; k < n; ++k) {
    VKHLO_ASSIGN_OR_RETURN(ir::Type type, ResultTensorType(context, op, k, od, inputs[k]->element_type()));
    VKHLO_ASSIGN_OR_RETURN(Literal result, Literal::Create(type));
    VKHLO_ASSIGN_OR_RETURN(std::span<uint8_t> out, result.mutable_raw());
    StridedCopy(ElementReader(*inputs[k]), 0, input_strides, out.data(), 0, input_strides, od);
    results.push_back(std::move(result));
    element_types.push_back(inputs[k]->element_type());
  }
  if (op.num_results() != n) return context.OpError(op, fmt::format("must have {} results", n));

  const Dims indices_strides = RowMajorStrides(id);
  const int64_t index_stride = ivd < indices_rank ? indices_strides[ivd] : 0;
  std::vector<ElementReader> update_readers;
  for (const Literal* u : updates) update_readers.emplace_back(*u);
  std::vector<uint8_t*> result_data;
  for (Literal& r : results) result_data.push_back(r.mutable_raw()->data());
  const ir::Region& computation = op.region(0);
  Status status;
  Dims full(static_cast<size_t>(input_rank));
  InterpValues args(2 * n);
  int64_t update_linear = 0;
  ForEachMultiIndex(ud, [&](std::span<const int64_t> u) -> bool {
    const int64_t ui = update_linear++;
    std::fill(full.begin(), full.end(), 0);
    int64_t indices_base = 0;
    for (size_t b = 0; b < update_scatter_dims.size(); ++b) {
      indices_base += u[update_scatter_dims[b]] * indices_strides[indices_batch_dims[b]];
    }
    for (size_t k = 0; k < dn->scatter_dims_to_operand_dims.size(); ++k) {
      full[dn->scatter_dims_to_operand_dims[k]] =
          IndexValue(*indices, indices_base + static_cast<int64_t>(k) * index_stride);
    }
    for (size_t i = 0; i < dn->input_batching_dims.size(); ++i) {
      const int64_t s = dn->scatter_indices_batching_dims[i];
      const int64_t b = s < ivd ? s : s - 1;
      full[dn->input_batching_dims[i]] = u[update_scatter_dims[b]];
    }
    int64_t ri = 0;
    for (size_t w = 0; w < window_input_dims.size(); ++w) {
      const int64_t d = window_input_dims[w];
      const int64_t start = full[d];
      // start + offset is outside [0, dim) exactly when start is outside [-offset, dim - offset).
      const int64_t offset = u[dn->update_window_dims[w]];
      if (start < -offset || start >= od[d] - offset) return true;
      full[d] = start + offset;
    }
    for (int64_t d = 0; d < input_rank; ++d) {
      if (full[d] < 0 || full[d] >= od[d]) return true;  // out of bounds: skipped
      ri += full[d] * input_strides[d];
    }
    for (size_t k = 0; k < n; ++k) {
      auto current = ScalarValue(results[k].type(), result_data[k] + ri * update_readers[k].element_bytes());
      auto update = ScalarValue(updates[k]->type(), update_readers[k].at(ui));
      if (!current.ok() || !update.ok()) {
        status = current.ok() ? update.status() : current.status();
        return false;
      }
      args[k] = *std::move(current);
      args[n + k] = *std::move(update);
    }
    auto values = EvaluateScalarRegion(context, op, computation, args, element_types, "update_computation");
    if (!values.ok()) {
      status = values.status();
      return false;
    }
    for (size_t k = 0; k < n; ++k) {
      const int64_t eb = update_readers[k].element_bytes();
      std::memcpy(result_data[k] + ri * eb, ScalarBytes((*values)[k]), eb);
    }
    return true;
  });
  VKHLO_RETURN_IF_ERROR(status);
  InterpValues out;
  for (Literal& r : results) out.push_back(InterpValue::Tensor(std::move(r)));
  return out;
}

}  // namespace

void RegisterScatterOps(OpRegistry& r) { r.Register(ir::OpCode::kScatter, EvalScatter); }

}  // namespace vkhlo::interp
