// select_and_scatter: for every source element, pick one operand element of its window with the
// `select` region, then fold the source element into the result at that position with the
// `scatter` region (the result starts as init_value everywhere).
//
// As in the StableHLO reference interpreter: windows walk the operand in row-major order over
// the window, padding positions are not candidates, the first candidate is kept while
// select(kept, candidate) is true and replaced otherwise, and a window without candidates
// scatters nothing (the spec leaves that case unspecified). Source elements are scattered in
// row-major order, each as result = scatter(result, source).
#include <fmt/format.h>

#include "interp/reduction.h"

namespace vkhlo::interp {
namespace {

using ir::Literal;
using ir::Operation;

StatusOr<InterpValues> EvalSelectAndScatter(EvalContext& context, const Operation& op, const InterpValues& operands) {
  VKHLO_RETURN_IF_ERROR(CheckOperandCount(context, op, operands, 3));
  if (op.num_regions() != 2) return context.OpError(op, "needs a select and a scatter region");
  VKHLO_ASSIGN_OR_RETURN(const Literal* operand, TensorOperand(context, op, operands, 0));
  VKHLO_ASSIGN_OR_RETURN(const Literal* source, TensorOperand(context, op, operands, 1));
  VKHLO_ASSIGN_OR_RETURN(const Literal* init, TensorOperand(context, op, operands, 2));
  const ir::ElementType et = operand->element_type();
  if (source->element_type() != et || init->element_type() != et || init->type().rank() != 0) {
    return context.OpError(op, fmt::format("source ({}) and init_value ({}) must have the operand's element type, "
                                           "init_value rank 0",
                                           source->type().ToString(), init->type().ToString()));
  }
  const Dims& dims = operand->type().dims();
  const int64_t rank = operand->type().rank();
  VKHLO_ASSIGN_OR_RETURN(WindowParams w, ReadWindow(context, op, rank, /*dilations=*/false));
  VKHLO_ASSIGN_OR_RETURN(Dims counts, WindowCounts(context, op, dims, w));
  if (source->type().dims() != counts) {
    return context.OpError(op, fmt::format("source shape {} must be the number of windows {}",
                                           DimsToString(source->type().dims()), DimsToString(counts)));
  }
  VKHLO_ASSIGN_OR_RETURN(ir::Type type, ResultTensorType(context, op, 0, dims, et));
  VKHLO_ASSIGN_OR_RETURN(Literal result, Literal::Create(type));
  VKHLO_ASSIGN_OR_RETURN(std::span<uint8_t> out, result.mutable_raw());
  const int64_t eb = ir::StorageBytes(et);
  FillElements(out.data(), result.num_elements(), init->raw().data(), eb);

  const ir::Region& select = op.region(0);
  const ir::Region& scatter = op.region(1);
  const ElementReader operand_reader(*operand), source_reader(*source);
  const Dims strides = RowMajorStrides(dims);
  const ir::ElementType kBool[] = {ir::ElementType::kI1};
  const ir::Type types[] = {operand->type()};
  const ir::ElementType element_types[] = {et};
  // The window's offsets, row-major, `rank` entries each.
  Dims offsets;
  ForEachMultiIndex(w.dimensions,
                    [&](std::span<const int64_t> o) { offsets.insert(offsets.end(), o.begin(), o.end()); });
  const size_t window_size = static_cast<size_t>(NumElements(w.dimensions));
  InterpValues select_args(2), scatter_args;
  Status status;
  int64_t source_linear = 0;
  ForEachMultiIndex(counts, [&](std::span<const int64_t> s) {
    const int64_t si = source_linear++;
    int64_t selected = -1;
    InterpValue selected_value;
    for (size_t wi = 0; wi < window_size; ++wi) {
      const int64_t* o = offsets.data() + wi * rank;
      int64_t index = 0;
      bool inside = true;
      for (int64_t d = 0; d < rank && inside; ++d) {
        const int64_t p = s[d] * w.strides[d] + o[d] - w.padding_low[d];
        inside = p >= 0 && p < dims[d];  // padding is not a candidate
        index += p * strides[d];
      }
      if (!inside) continue;
      auto candidate = ScalarValue(operand->type(), operand_reader.at(index));
      if (!candidate.ok()) {
        status = candidate.status();
        return false;
      }
      if (selected < 0) {
        selected = index;
        selected_value = *std::move(candidate);
        continue;
      }
      select_args[0] = selected_value;
      select_args[1] = *candidate;
      auto keep = EvaluateScalarRegion(context, op, select, select_args, kBool, "select");
      if (!keep.ok()) {
        status = keep.status();
        return false;
      }
      if ((*keep)[0].literal().GetInt(0) == 0) {
        selected = index;
        selected_value = *std::move(candidate);
      }
    }
    if (selected < 0) return true;
    uint8_t* acc[] = {out.data() + selected * eb};
    const uint8_t* value[] = {source_reader.at(si)};
    status = FoldScalars(context, op, scatter, types, element_types, acc, value, scatter_args);
    return status.ok();
  });
  VKHLO_RETURN_IF_ERROR(status);
  return InterpValues{InterpValue::Tensor(std::move(result))};
}

}  // namespace

void RegisterSelectAndScatterOps(OpRegistry& r) { r.Register(ir::OpCode::kSelectAndScatter, EvalSelectAndScatter); }

}  // namespace vkhlo::interp
