// Ops that take computations as regions: reductions, windows, sort, scatter, and control flow
// (while, conditional, call).
#include <fmt/format.h>

#include "builder/builder_state.h"
#include "builder/type_conversion.h"
#include "vkhlo/xla_builder.h"

namespace vkhlo {
namespace {

using internal::BuilderState;
using internal::OpCall;
using ir::OpCode;
using ir::Value;

std::vector<XlaOp> Concat(const std::vector<XlaOp>& a, const std::vector<XlaOp>& b) {
  std::vector<XlaOp> all = a;
  all.insert(all.end(), b.begin(), b.end());
  return all;
}

// An op with one region holding `computation` (scalar parameters bound to region arguments);
// its N results come back as one value (a tuple when N > 1).
XlaOp RegionOp(OpCall& call, OpCode code, std::vector<Value*> operands, std::vector<ir::NamedAttribute> attributes,
               const XlaComputation& computation, size_t num_results,
               std::optional<std::vector<ir::Type>> result_types = std::nullopt) {
  if (!call.ok()) return call.Invalid();
  BuilderState& state = call.state();
  auto types = internal::ParameterTypes(computation, false);
  if (!types.ok()) return call.Fail(types.status());
  auto op = internal::EmitWithRegions(
      state, call.block(), code, std::move(operands), std::move(attributes), 1, num_results,
      [&](ir::Operation& o) { return internal::BuildRegion(state, o.region(0), computation, *types, false); },
      std::move(result_types));
  if (!op.ok()) return call.Fail(op.status());
  return call.Finish(internal::EmitTupleOf(state, call.block(), (*op)->results()));
}

// The operand's dimensions (for padding computations), or an error.
StatusOr<std::vector<int64_t>> ArrayDims(const OpCall& call, size_t i) {
  const ir::Type& type = call.type(i);
  if (!type.is_tensor()) return InvalidArgumentError(fmt::format("operand {} must be an array", i));
  return type.dims();
}

std::vector<std::vector<int64_t>> PairsToRows(const std::vector<std::pair<int64_t, int64_t>>& pairs) {
  std::vector<std::vector<int64_t>> rows;
  for (const auto& [low, high] : pairs) rows.push_back({low, high});
  return rows;
}

XlaOp ReduceWindowImpl(const char* name, const std::vector<XlaOp>& operands, const std::vector<XlaOp>& init_values,
                       const XlaComputation& computation, const std::vector<int64_t>& window_dimensions,
                       const std::vector<int64_t>& window_strides, const std::vector<int64_t>& base_dilations,
                       const std::vector<int64_t>& window_dilations,
                       const std::optional<std::vector<std::pair<int64_t, int64_t>>>& padding, Padding padding_kind) {
  OpCall call(name, Concat(operands, init_values));
  if (!call.ok()) return call.Invalid();
  std::vector<std::pair<int64_t, int64_t>> pads;
  if (padding) {
    pads = *padding;
  } else {
    auto dims = ArrayDims(call, 0);
    if (!dims.ok()) return call.Fail(dims.status());
    pads = MakePadding(*dims, window_dimensions, window_strides, padding_kind);
  }
  std::vector<ir::NamedAttribute> attributes = {
      {"window_dimensions", internal::I64Array(window_dimensions)},
      {"window_strides", internal::I64Array(window_strides)},
      {"padding", internal::I64Matrix(PairsToRows(pads), 2)}};
  if (!base_dilations.empty()) attributes.emplace_back("base_dilations", internal::I64Array(base_dilations));
  if (!window_dilations.empty()) attributes.emplace_back("window_dilations", internal::I64Array(window_dilations));
  return RegionOp(call, OpCode::kReduceWindow, call.values(), std::move(attributes), computation, operands.size());
}

XlaOp SelectAndScatterImpl(XlaOp operand, const XlaComputation& select, const std::vector<int64_t>& window_dimensions,
                           const std::vector<int64_t>& window_strides,
                           const std::optional<std::vector<std::pair<int64_t, int64_t>>>& padding,
                           Padding padding_kind, XlaOp source, XlaOp init_value, const XlaComputation& scatter) {
  OpCall call("SelectAndScatter", {operand, source, init_value});
  if (!call.ok()) return call.Invalid();
  std::vector<std::pair<int64_t, int64_t>> pads;
  if (padding) {
    pads = *padding;
  } else {
    auto dims = ArrayDims(call, 0);
    if (!dims.ok()) return call.Fail(dims.status());
    pads = MakePadding(*dims, window_dimensions, window_strides, padding_kind);
  }
  BuilderState& state = call.state();
  auto select_types = internal::ParameterTypes(select, false);
  if (!select_types.ok()) return call.Fail(select_types.status());
  auto scatter_types = internal::ParameterTypes(scatter, false);
  if (!scatter_types.ok()) return call.Fail(scatter_types.status());
  auto op = internal::EmitWithRegions(
      state, call.block(), OpCode::kSelectAndScatter, call.values(),
      {{"window_dimensions", internal::I64Array(window_dimensions)},
       {"window_strides", internal::I64Array(window_strides)},
       {"padding", internal::I64Matrix(PairsToRows(pads), 2)}},
      2, 1, [&](ir::Operation& o) -> Status {
        VKHLO_RETURN_IF_ERROR(internal::BuildRegion(state, o.region(0), select, *select_types, false));
        return internal::BuildRegion(state, o.region(1), scatter, *scatter_types, false);
      });
  if (!op.ok()) return call.Fail(op.status());
  return call.Finish((*op)->result(0));
}

// How many values a computation returns (its root flattened), and whether the root is a tuple.
StatusOr<std::pair<size_t, bool>> ResultArity(const XlaComputation& computation) {
  VKHLO_ASSIGN_OR_RETURN(ProgramShape shape, computation.GetProgramShape());
  const Shape& result = shape.result();
  return std::make_pair(result.IsTuple() ? static_cast<size_t>(result.tuple_shapes_size()) : size_t{1},
                        result.IsTuple());
}

// Fills a branch region (no arguments) with `computation` applied to `operand`.
Status BuildBranch(BuilderState& state, ir::Region& region, const XlaComputation& computation, Value* operand) {
  ir::Block& block = region.AddBlock();
  VKHLO_ASSIGN_OR_RETURN(std::vector<Value*> results,
                         internal::InlineComputation(state, block, computation, {operand}));
  return internal::EmitTyped(state, block, OpCode::kReturn, results, {}).status();
}

// Several results as the value a computation with this result shape gives.
StatusOr<Value*> Regroup(BuilderState& state, ir::Block& block, const std::vector<Value*>& results, bool tuple) {
  if (!tuple) return results.at(0);
  VKHLO_ASSIGN_OR_RETURN(ir::Operation * op, internal::EmitInferred(state, block, OpCode::kTuple, results));
  return op->result(0);
}

XlaOp ConditionalImpl(OpCall& call, OpCode code, const std::vector<const XlaComputation*>& computations) {
  if (!call.ok()) return call.Invalid();
  BuilderState& state = call.state();
  if (computations.empty()) return call.Fail(InvalidArgumentError("at least one branch computation is needed"));
  for (const XlaComputation* computation : computations) {
    if (computation == nullptr) return call.Fail(InvalidArgumentError("a branch computation is null"));
  }
  auto arity = ResultArity(*computations[0]);
  if (!arity.ok()) return call.Fail(arity.status());
  auto op = internal::EmitWithRegions(
      state, call.block(), code, {call.value(0)}, {}, static_cast<int>(computations.size()), arity->first,
      [&](ir::Operation& o) -> Status {
        for (size_t i = 0; i < computations.size(); ++i) {
          VKHLO_RETURN_IF_ERROR(BuildBranch(state, o.region(i), *computations[i], call.value(i + 1))
                                    .WithContext(fmt::format("branch {} ('{}')", i, computations[i]->name())));
        }
        return OkStatus();
      });
  if (!op.ok()) return call.Fail(op.status());
  return call.Finish(Regroup(state, call.block(), (*op)->results(), arity->second));
}

}  // namespace

std::vector<std::pair<int64_t, int64_t>> MakePadding(const std::vector<int64_t>& input_dimensions,
                                                     const std::vector<int64_t>& window_dimensions,
                                                     const std::vector<int64_t>& window_strides, Padding padding) {
  std::vector<std::pair<int64_t, int64_t>> pads(window_dimensions.size(), {0, 0});
  if (padding == Padding::kValid) return pads;
  for (size_t i = 0; i < window_dimensions.size() && i < input_dimensions.size() && i < window_strides.size(); ++i) {
    const int64_t stride = window_strides[i] > 0 ? window_strides[i] : 1;
    const int64_t output = (input_dimensions[i] + stride - 1) / stride;
    const int64_t needed = std::max<int64_t>(0, (output - 1) * stride + window_dimensions[i] - input_dimensions[i]);
    pads[i] = {needed / 2, needed - needed / 2};
  }
  return pads;
}

XlaOp Reduce(XlaOp operand, XlaOp init_value, const XlaComputation& computation,
             const std::vector<int64_t>& dimensions_to_reduce) {
  return Reduce(operand.builder(), {operand}, {init_value}, computation, dimensions_to_reduce);
}

XlaOp Reduce(XlaBuilder* builder, const std::vector<XlaOp>& operands, const std::vector<XlaOp>& init_values,
             const XlaComputation& computation, const std::vector<int64_t>& dimensions_to_reduce) {
  OpCall call("Reduce", builder, Concat(operands, init_values));
  return RegionOp(call, OpCode::kReduce, call.values(), {{"dimensions", internal::I64Array(dimensions_to_reduce)}},
                  computation, operands.size());
}

XlaOp ReduceAll(XlaOp operand, XlaOp init_value, const XlaComputation& computation) {
  OpCall call("ReduceAll", {operand, init_value});
  if (!call.ok()) return call.Invalid();
  auto dims = ArrayDims(call, 0);
  if (!dims.ok()) return call.Fail(dims.status());
  std::vector<int64_t> all(dims->size());
  for (size_t i = 0; i < all.size(); ++i) all[i] = static_cast<int64_t>(i);
  return RegionOp(call, OpCode::kReduce, call.values(), {{"dimensions", internal::I64Array(all)}}, computation, 1);
}

XlaOp ReduceWindow(XlaOp operand, XlaOp init_value, const XlaComputation& computation,
                   const std::vector<int64_t>& window_dimensions, const std::vector<int64_t>& window_strides,
                   Padding padding) {
  return ReduceWindowImpl("ReduceWindow", {operand}, {init_value}, computation, window_dimensions, window_strides, {},
                          {}, std::nullopt, padding);
}

XlaOp ReduceWindow(const std::vector<XlaOp>& operands, const std::vector<XlaOp>& init_values,
                   const XlaComputation& computation, const std::vector<int64_t>& window_dimensions,
                   const std::vector<int64_t>& window_strides, Padding padding) {
  return ReduceWindowImpl("ReduceWindow", operands, init_values, computation, window_dimensions, window_strides, {},
                          {}, std::nullopt, padding);
}

XlaOp ReduceWindowWithGeneralPadding(XlaOp operand, XlaOp init_value, const XlaComputation& computation,
                                     const std::vector<int64_t>& window_dimensions,
                                     const std::vector<int64_t>& window_strides,
                                     const std::vector<int64_t>& base_dilations,
                                     const std::vector<int64_t>& window_dilations,
                                     const std::vector<std::pair<int64_t, int64_t>>& padding) {
  return ReduceWindowImpl("ReduceWindowWithGeneralPadding", {operand}, {init_value}, computation, window_dimensions,
                          window_strides, base_dilations, window_dilations, padding, Padding::kValid);
}

XlaOp SelectAndScatter(XlaOp operand, const XlaComputation& select, const std::vector<int64_t>& window_dimensions,
                       const std::vector<int64_t>& window_strides, Padding padding, XlaOp source, XlaOp init_value,
                       const XlaComputation& scatter) {
  return SelectAndScatterImpl(operand, select, window_dimensions, window_strides, std::nullopt, padding, source,
                              init_value, scatter);
}

XlaOp SelectAndScatterWithGeneralPadding(XlaOp operand, const XlaComputation& select,
                                         const std::vector<int64_t>& window_dimensions,
                                         const std::vector<int64_t>& window_strides,
                                         const std::vector<std::pair<int64_t, int64_t>>& padding, XlaOp source,
                                         XlaOp init_value, const XlaComputation& scatter) {
  return SelectAndScatterImpl(operand, select, window_dimensions, window_strides, padding, Padding::kValid, source,
                              init_value, scatter);
}

XlaOp Sort(const std::vector<XlaOp>& operands, const XlaComputation& comparator, int64_t dimension, bool is_stable) {
  OpCall call("Sort", operands);
  if (!call.ok()) return call.Invalid();
  if (operands.empty()) return call.Fail(InvalidArgumentError("Sort needs at least one operand"));
  if (dimension == -1) {
    auto dims = ArrayDims(call, 0);
    if (!dims.ok()) return call.Fail(dims.status());
    dimension = static_cast<int64_t>(dims->size()) - 1;
  }
  return RegionOp(call, OpCode::kSort, call.values(),
                  {{"dimension", internal::I64Attr(dimension)}, {"is_stable", internal::BoolAttr(is_stable)}},
                  comparator, operands.size());
}

XlaOp Scatter(XlaOp input, XlaOp scatter_indices, XlaOp updates, const XlaComputation& update_computation,
              const ScatterDimensionNumbers& dimension_numbers, bool indices_are_sorted, bool unique_indices) {
  return Scatter(std::vector<XlaOp>{input}, scatter_indices, std::vector<XlaOp>{updates}, update_computation,
                 dimension_numbers, indices_are_sorted, unique_indices);
}

XlaOp Scatter(const std::vector<XlaOp>& inputs, XlaOp scatter_indices, const std::vector<XlaOp>& updates,
              const XlaComputation& update_computation, const ScatterDimensionNumbers& dimension_numbers,
              bool indices_are_sorted, bool unique_indices) {
  std::vector<XlaOp> operands = inputs;
  operands.push_back(scatter_indices);
  operands.insert(operands.end(), updates.begin(), updates.end());
  OpCall call("Scatter", operands);
  ir::ScatterDimensionNumbers dnums;
  dnums.update_window_dims = dimension_numbers.update_window_dims();
  dnums.inserted_window_dims = dimension_numbers.inserted_window_dims();
  dnums.input_batching_dims = dimension_numbers.input_batching_dims();
  dnums.scatter_indices_batching_dims = dimension_numbers.scatter_indices_batching_dims();
  dnums.scatter_dims_to_operand_dims = dimension_numbers.scatter_dims_to_operand_dims();
  dnums.index_vector_dim = dimension_numbers.index_vector_dim();
  return RegionOp(call, OpCode::kScatter, call.values(),
                  {{"scatter_dimension_numbers", ir::Attribute(std::move(dnums))},
                   {"indices_are_sorted", internal::BoolAttr(indices_are_sorted)},
                   {"unique_indices", internal::BoolAttr(unique_indices)}},
                  update_computation, inputs.size());
}

XlaOp While(const XlaComputation& condition, const XlaComputation& body, XlaOp init) {
  OpCall call("While", {init});
  if (!call.ok()) return call.Invalid();
  BuilderState& state = call.state();
  const bool tuple = call.type(0).is_tuple();
  auto operands = internal::FlattenTuple(state, call.block(), call.value(0));
  if (!operands.ok()) return call.Fail(operands.status());
  std::vector<ir::Type> types;
  for (const Value* value : *operands) types.push_back(value->type());
  auto op = internal::EmitWithRegions(state, call.block(), OpCode::kWhile, *operands, {}, 2, operands->size(),
                                      [&](ir::Operation& o) -> Status {
                                        VKHLO_RETURN_IF_ERROR(
                                            internal::BuildRegion(state, o.region(0), condition, types, true)
                                                .WithContext("condition '" + condition.name() + "'"));
                                        return internal::BuildRegion(state, o.region(1), body, types, true)
                                            .WithContext("body '" + body.name() + "'");
                                      });
  if (!op.ok()) return call.Fail(op.status());
  return call.Finish(Regroup(state, call.block(), (*op)->results(), tuple));
}

XlaOp Conditional(XlaOp predicate, XlaOp true_operand, const XlaComputation& true_computation, XlaOp false_operand,
                  const XlaComputation& false_computation) {
  OpCall call("Conditional", {predicate, true_operand, false_operand});
  return ConditionalImpl(call, OpCode::kIf, {&true_computation, &false_computation});
}

XlaOp Conditional(XlaOp branch_index, const std::vector<const XlaComputation*>& branch_computations,
                  const std::vector<XlaOp>& branch_operands) {
  std::vector<XlaOp> operands = {branch_index};
  operands.insert(operands.end(), branch_operands.begin(), branch_operands.end());
  OpCall call("Conditional", operands);
  if (call.ok() && branch_operands.size() != branch_computations.size()) {
    return call.Fail(InvalidArgumentError(fmt::format("{} branch computations need as many operands, found {}",
                                                      branch_computations.size(), branch_operands.size())));
  }
  return ConditionalImpl(call, OpCode::kCase, branch_computations);
}

XlaOp Call(XlaBuilder* builder, const XlaComputation& computation, const std::vector<XlaOp>& operands) {
  OpCall call("Call", builder, operands);
  if (!call.ok()) return call.Invalid();
  BuilderState& state = call.state();
  auto arity = ResultArity(computation);
  if (!arity.ok()) return call.Fail(arity.status());
  auto name = internal::ImportComputation(state, computation);
  if (!name.ok()) return call.Fail(name.status());
  const ir::Function* callee = state.module->FindFunction(*name);
  auto op = internal::EmitTyped(state, call.block(), OpCode::kCall, call.values(), callee->type().results,
                                {{"callee", ir::Attribute::Symbol(*name)}});
  if (!op.ok()) return call.Fail(op.status());
  return call.Finish(Regroup(state, call.block(), (*op)->results(), arity->second));
}

XlaOp OptimizationBarrier(XlaOp operand) {
  OpCall call("OptimizationBarrier", {operand});
  if (!call.ok()) return call.Invalid();
  BuilderState& state = call.state();
  auto operands = internal::FlattenTuple(state, call.block(), call.value(0));
  if (!operands.ok()) return call.Fail(operands.status());
  auto op = internal::EmitInferred(state, call.block(), OpCode::kOptimizationBarrier, *operands);
  if (!op.ok()) return call.Fail(op.status());
  return call.Finish(Regroup(state, call.block(), (*op)->results(), call.type(0).is_tuple()));
}

}  // namespace vkhlo
