// reduce and reduce_window: variadic reductions with a body region evaluated on rank-0 tensors.
//
// Schedule (the spec lets the implementation choose one): each result element starts from the
// init values and folds in its input elements in ascending lexicographic order,
// acc = body(acc..., x...). reduce_window follows the spec's definition literally: the window
// reads the input padded (and base-dilated) with the init values, so padding positions inside a
// window are folded in as init values.
#include <fmt/format.h>

#include "interp/reduction.h"
#include "interp/shape_util.h"

namespace vkhlo::interp {

Status FoldScalars(EvalContext& context, const ir::Operation& op, const ir::Region& body,
                   std::span<const ir::Type> types, std::span<const ir::ElementType> element_types,
                   std::span<uint8_t* const> accumulators, std::span<const uint8_t* const> values, InterpValues& args) {
  const size_t n = types.size();
  args.resize(2 * n);
  for (size_t k = 0; k < n; ++k) {
    VKHLO_ASSIGN_OR_RETURN(args[k], ScalarValue(types[k], accumulators[k]));
    VKHLO_ASSIGN_OR_RETURN(args[n + k], ScalarValue(types[k], values[k]));
  }
  VKHLO_ASSIGN_OR_RETURN(InterpValues results, EvaluateScalarRegion(context, op, body, args, element_types, "body"));
  for (size_t k = 0; k < n; ++k) {
    std::memcpy(accumulators[k], ScalarBytes(results[k]), ir::StorageBytes(element_types[k]));
  }
  return OkStatus();
}

StatusOr<WindowParams> ReadWindow(EvalContext& context, const ir::Operation& op, int64_t rank, bool dilations) {
  WindowParams w;
  const Dims ones(static_cast<size_t>(rank), 1);
  VKHLO_ASSIGN_OR_RETURN(w.dimensions, I64VectorAttr(context, op, "window_dimensions"));
  VKHLO_ASSIGN_OR_RETURN(w.strides, I64VectorAttrOr(context, op, "window_strides", ones));
  if (dilations) {
    VKHLO_ASSIGN_OR_RETURN(w.base_dilations, I64VectorAttrOr(context, op, "base_dilations", ones));
    VKHLO_ASSIGN_OR_RETURN(w.window_dilations, I64VectorAttrOr(context, op, "window_dilations", ones));
  } else {
    w.base_dilations = w.window_dilations = ones;
  }
  VKHLO_ASSIGN_OR_RETURN(Dims padding, I64VectorAttrOr(context, op, "padding", Dims(2 * rank, 0)));
  const std::pair<const char*, const Dims*> lists[] = {{"window_dimensions", &w.dimensions},
                                                       {"window_strides", &w.strides},
                                                       {"base_dilations", &w.base_dilations},
                                                       {"window_dilations", &w.window_dilations}};
  for (const auto& [name, list] : lists) {
    if (static_cast<int64_t>(list->size()) != rank) {
      return context.OpError(op, fmt::format("{} {} must have {} entries", name, DimsToString(*list), rank));
    }
    for (int64_t value : *list) {
      if (value <= 0) return context.OpError(op, fmt::format("{} {} must be positive", name, DimsToString(*list)));
    }
  }
  if (static_cast<int64_t>(padding.size()) != 2 * rank) {
    return context.OpError(op, fmt::format("padding must be {}x2, found {} values", rank, padding.size()));
  }
  for (int64_t d = 0; d < rank; ++d) {
    w.padding_low.push_back(padding[2 * d]);
    w.padding_high.push_back(padding[2 * d + 1]);
  }
  return w;
}

StatusOr<Dims> WindowCounts(EvalContext& context, const ir::Operation& op, const Dims& dims, const WindowParams& w) {
  Dims counts(dims.size());
  for (size_t d = 0; d < dims.size(); ++d) {
    int64_t dilated = 0, padded = 0, window = 0;
    if (dims[d] > 0 && __builtin_mul_overflow(dims[d] - 1, w.base_dilations[d], &dilated)) dilated = -1;
    if (dims[d] > 0 && dilated >= 0) dilated += 1;
    if (dilated < 0 || __builtin_add_overflow(dilated, w.padding_low[d], &padded) ||
        __builtin_add_overflow(padded, w.padding_high[d], &padded) ||
        __builtin_mul_overflow(w.dimensions[d] - 1, w.window_dilations[d], &window)) {
      return context.OpError(op, fmt::format("window sizes of dimension {} overflow", d));
    }
    window += 1;
    counts[d] = (padded <= 0 || window > padded) ? 0 : (padded - window) / w.strides[d] + 1;
  }
  return counts;
}

namespace {

using ir::Literal;
using ir::Operation;

// The shared operand layout of reduce and reduce_window: N inputs of one shape, then N rank-0
// init values of the inputs' element types.
struct VariadicInputs {
  std::vector<const Literal*> inputs, inits;
  std::vector<ir::Type> types;  // of the inputs (for rank-0 values)
  std::vector<ir::ElementType> element_types;
};

StatusOr<VariadicInputs> ReadVariadicInputs(EvalContext& context, const Operation& op, const InterpValues& operands) {
  if (operands.size() < 2 || operands.size() % 2 != 0) {
    return context.OpError(op, fmt::format("takes N inputs and N init values; given {} operands", operands.size()));
  }
  if (op.num_regions() != 1) return context.OpError(op, "needs one body region");
  const size_t n = operands.size() / 2;
  if (op.num_results() != n) return context.OpError(op, fmt::format("must have {} results", n));
  VariadicInputs v;
  for (size_t k = 0; k < n; ++k) {
    VKHLO_ASSIGN_OR_RETURN(const Literal* input, TensorOperand(context, op, operands, k));
    VKHLO_ASSIGN_OR_RETURN(const Literal* init, TensorOperand(context, op, operands, n + k));
    if (k > 0 && input->type().dims() != v.inputs[0]->type().dims()) {
      return context.OpError(op, fmt::format("input {} ({}) must have the shape of input 0 ({})", k,
                                             input->type().ToString(), v.inputs[0]->type().ToString()));
    }
    if (init->type().rank() != 0 || init->element_type() != input->element_type()) {
      return context.OpError(op, fmt::format("init value {} ({}) must be a rank-0 tensor of input {}'s element type", k,
                                             init->type().ToString(), k));
    }
    v.inputs.push_back(input);
    v.inits.push_back(init);
    v.types.push_back(input->type());
    v.element_types.push_back(input->element_type());
  }
  return v;
}

// Results of `dims`, every element the init value.
StatusOr<std::vector<Literal>> InitResults(EvalContext& context, const Operation& op, const VariadicInputs& v,
                                           const Dims& dims) {
  std::vector<Literal> results;
  for (size_t k = 0; k < v.inputs.size(); ++k) {
    VKHLO_ASSIGN_OR_RETURN(ir::Type type, ResultTensorType(context, op, k, dims, v.element_types[k]));
    VKHLO_ASSIGN_OR_RETURN(Literal result, Literal::Create(type));
    VKHLO_ASSIGN_OR_RETURN(std::span<uint8_t> out, result.mutable_raw());
    FillElements(out.data(), result.num_elements(), v.inits[k]->raw().data(), ir::StorageBytes(v.element_types[k]));
    results.push_back(std::move(result));
  }
  return results;
}

InterpValues ToValues(std::vector<Literal>& results) {
  InterpValues values;
  for (Literal& r : results) values.push_back(InterpValue::Tensor(std::move(r)));
  return values;
}

StatusOr<InterpValues> EvalReduce(EvalContext& context, const Operation& op, const InterpValues& operands) {
  VKHLO_ASSIGN_OR_RETURN(VariadicInputs v, ReadVariadicInputs(context, op, operands));
  const Dims& dims = v.inputs[0]->type().dims();
  const int64_t rank = v.inputs[0]->type().rank();
  VKHLO_ASSIGN_OR_RETURN(Dims dimensions, I64VectorAttr(context, op, "dimensions"));
  VKHLO_RETURN_IF_ERROR(CheckDimensionList(context, op, "dimensions", dimensions, rank));
  std::vector<bool> reduced(static_cast<size_t>(rank), false);
  for (int64_t d : dimensions) reduced[d] = true;
  Dims result_dims;
  for (int64_t d = 0; d < rank; ++d) {
    if (!reduced[d]) result_dims.push_back(dims[d]);
  }
  VKHLO_ASSIGN_OR_RETURN(std::vector<Literal> results, InitResults(context, op, v, result_dims));
  // Walk the input in row-major order; b is the result element each input element folds into.
  const Dims result_strides = RowMajorStrides(result_dims);
  Dims fold_strides(static_cast<size_t>(rank), 0);
  for (int64_t d = 0, r = 0; d < rank; ++d) {
    if (!reduced[d]) fold_strides[d] = result_strides[r++];
  }
  const size_t n = v.inputs.size();
  std::vector<ElementReader> readers;
  std::vector<uint8_t*> data;
  for (size_t k = 0; k < n; ++k) {
    readers.emplace_back(*v.inputs[k]);
    data.push_back(results[k].mutable_raw()->data());
  }
  std::vector<uint8_t*> acc(n);
  std::vector<const uint8_t*> x(n);
  InterpValues args;
  Status status;
  const ir::Region& body = op.region(0);
  ForEachIndex(dims, 0, RowMajorStrides(dims), 0, fold_strides, [&](int64_t a, int64_t b) {
    for (size_t k = 0; k < n; ++k) {
      acc[k] = data[k] + b * readers[k].element_bytes();
      x[k] = readers[k].at(a);
    }
    status = FoldScalars(context, op, body, v.types, v.element_types, acc, x, args);
    return status.ok();
  });
  VKHLO_RETURN_IF_ERROR(status);
  return ToValues(results);
}

StatusOr<InterpValues> EvalReduceWindow(EvalContext& context, const Operation& op, const InterpValues& operands) {
  VKHLO_ASSIGN_OR_RETURN(VariadicInputs v, ReadVariadicInputs(context, op, operands));
  const Dims& dims = v.inputs[0]->type().dims();
  const int64_t rank = v.inputs[0]->type().rank();
  VKHLO_ASSIGN_OR_RETURN(WindowParams w, ReadWindow(context, op, rank, /*dilations=*/true));
  VKHLO_ASSIGN_OR_RETURN(Dims result_dims, WindowCounts(context, op, dims, w));
  VKHLO_ASSIGN_OR_RETURN(std::vector<Literal> results, InitResults(context, op, v, result_dims));

  const size_t n = v.inputs.size();
  std::vector<ElementReader> readers;
  std::vector<uint8_t*> data;
  for (size_t k = 0; k < n; ++k) {
    readers.emplace_back(*v.inputs[k]);
    data.push_back(results[k].mutable_raw()->data());
  }
  const Dims input_strides = RowMajorStrides(dims);
  std::vector<uint8_t*> acc(n);
  std::vector<const uint8_t*> x(n);
  InterpValues args;
  Status status;
  const ir::Region& body = op.region(0);
  int64_t result_linear = 0;
  ForEachMultiIndex(result_dims, [&](std::span<const int64_t> r) {
    const int64_t ri = result_linear++;
    for (size_t k = 0; k < n; ++k) acc[k] = data[k] + ri * readers[k].element_bytes();
    ForEachMultiIndex(w.dimensions, [&](std::span<const int64_t> o) {
      // Position in the dilated input: padding and dilation holes read the init value.
      int64_t input_index = 0;
      bool in_input = true;
      for (int64_t d = 0; d < rank && in_input; ++d) {
        const int64_t p = r[d] * w.strides[d] + o[d] * w.window_dilations[d] - w.padding_low[d];
        const int64_t q = p / w.base_dilations[d];
        in_input = p >= 0 && p % w.base_dilations[d] == 0 && q < dims[d];
        input_index += q * input_strides[d];
      }
      for (size_t k = 0; k < n; ++k) x[k] = in_input ? readers[k].at(input_index) : v.inits[k]->raw().data();
      status = FoldScalars(context, op, body, v.types, v.element_types, acc, x, args);
      return status.ok();
    });
    return status.ok();
  });
  VKHLO_RETURN_IF_ERROR(status);
  return ToValues(results);
}

}  // namespace

void RegisterReductionOps(OpRegistry& r) {
  r.Register(ir::OpCode::kReduce, EvalReduce);
  r.Register(ir::OpCode::kReduceWindow, EvalReduceWindow);
  RegisterSelectAndScatterOps(r);
}

}  // namespace vkhlo::interp
