// Reductions: reduce, reduce_window and select_and_scatter, with their body signatures.
#include <fmt/format.h>

#include <algorithm>

#include "verify/op_rules.h"
#include "verify/shape_inference.h"

namespace vkhlo::verify {
namespace {

using ir::ElementType;
using ir::OpCode;
using ir::Type;

constexpr uint32_t kAny = kAnyElement;

// The inputs/init_values split of reduce and reduce_window: 2N operands, N >= 1.
StatusOr<size_t> SplitInputs(const OpContext& ctx, std::string_view count_label, std::string_view shape_label,
                             std::string_view element_label) {
  const size_t n_operands = ctx.num_operands();
  if (n_operands % 2 != 0 || n_operands == 0) {
    return ctx.Error(fmt::format("requires as many init_values as inputs ({})", count_label),
                     "an even number of operands", fmt::format("{} operands", n_operands));
  }
  const size_t n = n_operands / 2;
  VKHLO_RETURN_IF_ERROR(ctx.RequireTensors(0, n, kAny, "inputs (I1)"));
  for (size_t k = 0; k < n; ++k) {
    VKHLO_RETURN_IF_ERROR(ctx.RequireScalar(n + k, kAny, "init_values (I2)"));
    if (!SameShape(ctx.operand(0), ctx.operand(k))) {
      return ctx.Error(fmt::format("inputs must have the same shape ({})", shape_label), ctx.operand(0).ToString(),
                       ctx.operand(k).ToString());
    }
    if (!CompatibleElement(ctx.operand(k), ctx.operand(n + k))) {
      return ctx.Error(fmt::format("inputs[{}] and init_values[{}] must have the same element type ({})", k, k,
                                   element_label),
                       ElementName(ctx.operand(k)), ElementName(ctx.operand(n + k)));
    }
  }
  return n;
}

// The result of a reduction over `input` with accumulator scalar `accumulator`.
Type ReducedType(const Type& input, const Type& accumulator, std::vector<int64_t> dims) {
  if (accumulator == ScalarOf(input)) return input.WithDims(std::move(dims));
  return accumulator.WithDims(std::move(dims));
}

StatusOr<TypeList> InferReduce(const OpContext& ctx) {
  VKHLO_ASSIGN_OR_RETURN(size_t n, SplitInputs(ctx, "C3", "C1", "C2"));
  std::span<const Type> inputs = ctx.operands().subspan(0, n);
  const int64_t rank = inputs[0].rank();
  VKHLO_ASSIGN_OR_RETURN(auto dimensions, ctx.Ints("dimensions"));
  VKHLO_RETURN_IF_ERROR(ctx.CheckInRange(dimensions, 0, rank, "dimensions", "C4"));
  VKHLO_RETURN_IF_ERROR(ctx.CheckUnique(dimensions, "dimensions", "C5"));
  VKHLO_ASSIGN_OR_RETURN(RegionSignature body, ctx.Region(0, "body"));
  VKHLO_ASSIGN_OR_RETURN(auto accumulators, ctx.CheckReducerType(body, inputs, "body", "C6"));
  std::vector<int64_t> dims;
  for (int64_t d = 0; d < rank; ++d) {
    if (std::find(dimensions.begin(), dimensions.end(), d) == dimensions.end()) dims.push_back(inputs[0].dim(d));
  }
  TypeList results;
  for (size_t k = 0; k < n; ++k) results.push_back(ReducedType(inputs[k], accumulators[k], dims));
  return results;
}

StatusOr<TypeList> InferReduceWindow(const OpContext& ctx) {
  VKHLO_ASSIGN_OR_RETURN(size_t n, SplitInputs(ctx, "C1", "C2", "C3"));
  std::span<const Type> inputs = ctx.operands().subspan(0, n);
  const int64_t rank = inputs[0].rank();
  VKHLO_ASSIGN_OR_RETURN(auto window, ctx.Ints("window_dimensions"));
  VKHLO_RETURN_IF_ERROR(ctx.CheckSize(window, rank, "window_dimensions", "C4"));
  for (int64_t w : window) {
    if (w <= 0) {
      return ctx.Error("window_dimensions must be positive (C5)", "values > 0", IntListToString(window));
    }
  }
  VKHLO_ASSIGN_OR_RETURN(auto strides, WindowAttribute(ctx, "window_strides", rank, 1, true, "C6", "C7"));
  VKHLO_ASSIGN_OR_RETURN(auto base_dilations, WindowAttribute(ctx, "base_dilations", rank, 1, true, "C8", "C9"));
  VKHLO_ASSIGN_OR_RETURN(auto window_dilations,
                         WindowAttribute(ctx, "window_dilations", rank, 1, true, "C10", "C11"));
  VKHLO_ASSIGN_OR_RETURN(auto padding, PaddingAttribute(ctx, "padding", rank, "C12"));
  VKHLO_ASSIGN_OR_RETURN(RegionSignature body, ctx.Region(0, "body"));
  VKHLO_ASSIGN_OR_RETURN(auto accumulators, ctx.CheckReducerType(body, inputs, "body", "C13"));
  std::vector<int64_t> dims;
  for (int64_t d = 0; d < rank; ++d) {
    WindowDim w{inputs[0].dim(d), window[d], strides[d], padding[d].first, padding[d].second,
                base_dilations[d], window_dilations[d]};
    if (ir::IsDynamicDim(w.size)) {
      dims.push_back(ir::kDynamic);
      continue;
    }
    VKHLO_ASSIGN_OR_RETURN(int64_t size, NumWindows(ctx, w, "C15"));
    dims.push_back(size);
  }
  TypeList results;
  for (size_t k = 0; k < n; ++k) results.push_back(ReducedType(inputs[k], accumulators[k], dims));
  return results;
}

StatusOr<TypeList> InferSelectAndScatter(const OpContext& ctx) {
  VKHLO_RETURN_IF_ERROR(ctx.RequireTensor(0, kAny, "operand (I1)"));
  VKHLO_RETURN_IF_ERROR(ctx.RequireTensor(1, kAny, "source (I2)"));
  VKHLO_RETURN_IF_ERROR(ctx.RequireScalar(2, kAny, "init_value (I3)"));
  const Type& operand = ctx.operand(0);
  const Type& source = ctx.operand(1);
  const int64_t rank = operand.rank();
  if (!CompatibleElement(operand, source)) {
    return ctx.Error("operand and source must have the same element type (C2)", ElementName(operand),
                     ElementName(source));
  }
  if (!CompatibleElement(operand, ctx.operand(2))) {
    return ctx.Error("init_value must have the operand's element type (C4)", ElementName(operand),
                     ElementName(ctx.operand(2)));
  }
  VKHLO_ASSIGN_OR_RETURN(auto window, WindowAttribute(ctx, "window_dimensions", rank, 1, true, "C1", "C6"));
  VKHLO_ASSIGN_OR_RETURN(auto strides, WindowAttribute(ctx, "window_strides", rank, 1, true, "C7", "C8"));
  VKHLO_ASSIGN_OR_RETURN(auto padding, PaddingAttribute(ctx, "padding", rank, "C9"));
  std::vector<int64_t> windows;
  for (int64_t d = 0; d < rank; ++d) {
    WindowDim w{operand.dim(d), window[d], strides[d], padding[d].first, padding[d].second, 1, 1};
    if (ir::IsDynamicDim(w.size)) {
      windows.push_back(ir::kDynamic);
      continue;
    }
    VKHLO_ASSIGN_OR_RETURN(int64_t size, NumWindows(ctx, w, "C3"));
    windows.push_back(size);
  }
  if (!CompatibleDims(source.dims(), windows)) {
    return ctx.Error("source must have the shape of the operand's windows (C3)", IntListToString(windows),
                     source.ToString());
  }
  const Type scalar = ScalarOf(operand);
  const Type boolean = Type::Scalar(ElementType::kI1);
  VKHLO_ASSIGN_OR_RETURN(RegionSignature select, ctx.Region(0, "select"));
  const Type select_args[] = {scalar, scalar};
  VKHLO_RETURN_IF_ERROR(ctx.CheckRegionType(select, select_args, std::span(&boolean, 1), "select", "C10"));
  VKHLO_ASSIGN_OR_RETURN(RegionSignature scatter, ctx.Region(1, "scatter"));
  VKHLO_ASSIGN_OR_RETURN(auto accumulators, ctx.CheckReducerType(scatter, std::span(&operand, 1), "scatter", "C11"));
  return TypeList{ReducedType(operand, accumulators[0], operand.dims())};
}

constexpr OpRule kRules[] = {
    {OpCode::kReduce, InferReduce, nullptr,
     "result types must be the inputs' without the reduced dimensions, of the body's element types (C7, C8)",
     ResultMatch::kCompatible},
    {OpCode::kReduceWindow, InferReduceWindow, nullptr,
     "result types must have the shape of the windows and the body's element types (C14-C16)",
     ResultMatch::kCompatible},
    {OpCode::kSelectAndScatter, InferSelectAndScatter, nullptr, "result type must match the operand's (C12)",
     ResultMatch::kCompatible},
};

}  // namespace

std::span<const OpRule> ReductionRules() { return kRules; }

}  // namespace vkhlo::verify
