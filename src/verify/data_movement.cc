// Data movement and shapes: broadcasts, concatenate, slices, pad, reshape, reverse, sort,
// transpose, iota, tuples, and the dynamic-shape variants (checked as far as shapes are static).
#include <fmt/format.h>

#include <algorithm>
#include <numeric>

#include "verify/op_rules.h"
#include "verify/shape_inference.h"

namespace vkhlo::verify {
namespace {

using ir::ElementType;
using ir::OpCode;
using ir::Type;

constexpr uint32_t kAny = kAnyElement;

Status RequireSameElement(const OpContext& ctx, const Type& a, const Type& b, std::string_view what) {
  if (CompatibleElement(a, b)) return OkStatus();
  return ctx.Error(what, ElementName(a), ElementName(b));
}

// Index operands [first, end): 0-dimensional integer tensors of one type.
Status RequireIndexScalars(const OpContext& ctx, size_t first, std::string_view label, std::string_view same_label) {
  for (size_t i = first; i < ctx.num_operands(); ++i) {
    VKHLO_RETURN_IF_ERROR(ctx.RequireScalar(i, kInt, label));
    if (ctx.operand(i) != ctx.operand(first)) {
      return ctx.Error(fmt::format("start_indices must have the same type ({})", same_label),
                       ctx.operand(first).ToString(), ctx.operand(i).ToString());
    }
  }
  return OkStatus();
}

// broadcast_dimensions against operand and result (shared with dynamic_broadcast_in_dim).
Status CheckBroadcastDimensions(const OpContext& ctx, const Type& operand, const Type& result) {
  VKHLO_ASSIGN_OR_RETURN(auto dims, ctx.Ints("broadcast_dimensions"));
  VKHLO_RETURN_IF_ERROR(ctx.CheckSize(dims, operand.rank(), "broadcast_dimensions", "C2"));
  VKHLO_RETURN_IF_ERROR(ctx.CheckInRange(dims, 0, result.rank(), "broadcast_dimensions", "C3"));
  VKHLO_RETURN_IF_ERROR(ctx.CheckUnique(dims, "broadcast_dimensions", "C4"));
  for (size_t j = 0; j < dims.size(); ++j) {
    const int64_t size = operand.dim(static_cast<int64_t>(j));
    const int64_t target = result.dim(dims[j]);
    if (size != 1 && !CompatibleDim(size, target)) {
      return ctx.Error(fmt::format("operand dimension {} must be 1 or match result dimension {} (C5)", j, dims[j]),
                       fmt::format("1 or {}", target), fmt::format("{}", size));
    }
  }
  return OkStatus();
}

Status VerifyBroadcastInDim(const OpContext& ctx) {
  VKHLO_RETURN_IF_ERROR(ctx.RequireTensor(0, kAny, "operand (I1)"));
  VKHLO_RETURN_IF_ERROR(ctx.RequireResultTensor(0, kAny, "result"));
  VKHLO_RETURN_IF_ERROR(RequireSameElement(ctx, ctx.operand(0), ctx.result(0),
                                           "operand and result must have the same element type (C1)"));
  return CheckBroadcastDimensions(ctx, ctx.operand(0), ctx.result(0));
}

StatusOr<TypeList> InferBroadcast(const OpContext& ctx) {
  VKHLO_RETURN_IF_ERROR(ctx.RequireTensor(0, kAny, "operand (I1)"));
  VKHLO_ASSIGN_OR_RETURN(auto sizes, ctx.Ints("broadcast_sizes"));
  VKHLO_RETURN_IF_ERROR(ctx.CheckInRange(sizes, 0, INT64_MAX, "broadcast_sizes", ""));
  std::vector<int64_t> dims = sizes;
  dims.insert(dims.end(), ctx.operand(0).dims().begin(), ctx.operand(0).dims().end());
  Type result = WithDims(ctx.operand(0), dims);
  if (result.is_static() && result.num_elements() < 0) {
    return ctx.Error("result has too many elements", "at most 9223372036854775807 elements", result.ToString());
  }
  return TypeList{result};
}

StatusOr<TypeList> InferConcatenate(const OpContext& ctx) {
  VKHLO_RETURN_IF_ERROR(ctx.RequireTensors(0, ctx.num_operands(), kAny, "inputs (I1)"));
  const Type& first = ctx.operand(0);
  VKHLO_ASSIGN_OR_RETURN(int64_t dimension, ctx.Int("dimension"));
  if (dimension < 0 || dimension >= first.rank()) {
    return ctx.Error("dimension must be in range (C4)", fmt::format("a value in [0, {})", first.rank()),
                     fmt::format("{}", dimension));
  }
  std::vector<int64_t> dims = first.dims();
  for (size_t i = 1; i < ctx.num_operands(); ++i) {
    const Type& input = ctx.operand(i);
    VKHLO_RETURN_IF_ERROR(
        RequireSameElement(ctx, first, input, "inputs must have the same element type (C1)"));
    bool same = input.rank() == first.rank();
    for (int64_t d = 0; same && d < first.rank(); ++d) same = d == dimension || CompatibleDim(input.dim(d), dims[d]);
    if (!same) {
      return ctx.Error(fmt::format("inputs must have the same shape except in dimension {} (C2)", dimension),
                       first.ToString(), input.ToString());
    }
    for (int64_t d = 0; d < first.rank(); ++d) {
      if (d != dimension) dims[d] = MergeDim(dims[d], input.dim(d));
    }
    if (ir::IsDynamicDim(dims[dimension]) || input.is_dynamic_dim(dimension)) {
      dims[dimension] = ir::kDynamic;
      continue;
    }
    auto sum = CheckedAdd(dims[dimension], input.dim(dimension));
    if (!sum) return ctx.Error("result dimension overflows (C6)", "a size that fits in int64", "an overflow");
    dims[dimension] = *sum;
  }
  return TypeList{WithDims(first, dims)};
}

StatusOr<TypeList> InferDynamicSlice(const OpContext& ctx) {
  VKHLO_RETURN_IF_ERROR(ctx.RequireTensor(0, kAny, "operand (I1)"));
  VKHLO_RETURN_IF_ERROR(RequireIndexScalars(ctx, 1, "start_indices (I2)", "C3"));
  const Type& operand = ctx.operand(0);
  VKHLO_ASSIGN_OR_RETURN(auto sizes, ctx.Ints("slice_sizes"));
  const int64_t starts = static_cast<int64_t>(ctx.num_operands()) - 1;
  if (starts != operand.rank()) {
    return ctx.Error("start_indices must have one index per operand dimension (C2)",
                     fmt::format("{} indices", operand.rank()), fmt::format("{} indices", starts));
  }
  VKHLO_RETURN_IF_ERROR(ctx.CheckSize(sizes, operand.rank(), "slice_sizes", "C2"));
  for (int64_t k = 0; k < operand.rank(); ++k) {
    if (sizes[k] < 0 || (!operand.is_dynamic_dim(k) && sizes[k] > operand.dim(k))) {
      return ctx.Error(fmt::format("slice_sizes[{}] must be in [0, dim(operand, {})] (C4)", k, k),
                       fmt::format("a value in [0, {}]", operand.dim(k)), fmt::format("{}", sizes[k]));
    }
  }
  return TypeList{WithDims(operand, sizes)};
}

StatusOr<TypeList> InferDynamicUpdateSlice(const OpContext& ctx) {
  VKHLO_RETURN_IF_ERROR(ctx.RequireTensor(0, kAny, "operand (I1)"));
  VKHLO_RETURN_IF_ERROR(ctx.RequireTensor(1, kAny, "update (I2)"));
  VKHLO_RETURN_IF_ERROR(RequireIndexScalars(ctx, 2, "start_indices (I3)", "C5"));
  const Type& operand = ctx.operand(0);
  const Type& update = ctx.operand(1);
  VKHLO_RETURN_IF_ERROR(
      RequireSameElement(ctx, operand, update, "update and operand must have the same element type (C2)"));
  if (update.rank() != operand.rank()) {
    return ctx.Error("update and operand must have the same rank (C3)", fmt::format("rank {}", operand.rank()),
                     update.ToString());
  }
  const int64_t starts = static_cast<int64_t>(ctx.num_operands()) - 2;
  if (starts != operand.rank()) {
    return ctx.Error("start_indices must have one index per operand dimension (C4)",
                     fmt::format("{} indices", operand.rank()), fmt::format("{} indices", starts));
  }
  for (int64_t k = 0; k < operand.rank(); ++k) {
    if (!update.is_dynamic_dim(k) && !operand.is_dynamic_dim(k) && update.dim(k) > operand.dim(k)) {
      return ctx.Error(fmt::format("dim(update, {}) must be in [0, dim(operand, {})] (C6)", k, k),
                       fmt::format("a value in [0, {}]", operand.dim(k)), fmt::format("{}", update.dim(k)));
    }
  }
  return TypeList{operand};
}

StatusOr<TypeList> InferGetDimensionSize(const OpContext& ctx) {
  VKHLO_RETURN_IF_ERROR(ctx.RequireTensor(0, kAny, "operand (I1)"));
  VKHLO_ASSIGN_OR_RETURN(int64_t dimension, ctx.Int("dimension"));
  if (dimension < 0 || dimension >= ctx.operand(0).rank()) {
    return ctx.Error("dimension must be in range (C1)", fmt::format("a value in [0, {})", ctx.operand(0).rank()),
                     fmt::format("{}", dimension));
  }
  return TypeList{Type::Scalar(ElementType::kS32)};
}

Status CheckIotaDimension(const OpContext& ctx, const Type& output) {
  VKHLO_ASSIGN_OR_RETURN(int64_t dimension, ctx.Int("iota_dimension"));
  if (dimension < 0 || dimension >= output.rank()) {
    return ctx.Error("iota_dimension must be in range (C1)", fmt::format("a value in [0, {})", output.rank()),
                     fmt::format("{}", dimension));
  }
  return OkStatus();
}

Status VerifyIota(const OpContext& ctx) {
  VKHLO_RETURN_IF_ERROR(ctx.RequireResultTensor(0, kInt | kFloat | kComplex | kQuantized, "output"));
  return CheckIotaDimension(ctx, ctx.result(0));
}

StatusOr<TypeList> InferPad(const OpContext& ctx) {
  VKHLO_RETURN_IF_ERROR(ctx.RequireTensor(0, kAny, "operand (I1)"));
  VKHLO_RETURN_IF_ERROR(ctx.RequireScalar(1, kAny, "padding_value (I2)"));
  const Type& operand = ctx.operand(0);
  VKHLO_RETURN_IF_ERROR(RequireSameElement(ctx, operand, ctx.operand(1),
                                           "operand and padding_value must have the same element type (C1)"));
  VKHLO_ASSIGN_OR_RETURN(auto low, ctx.Ints("edge_padding_low"));
  VKHLO_ASSIGN_OR_RETURN(auto high, ctx.Ints("edge_padding_high"));
  VKHLO_ASSIGN_OR_RETURN(auto interior, ctx.Ints("interior_padding"));
  VKHLO_RETURN_IF_ERROR(ctx.CheckSize(low, operand.rank(), "edge_padding_low", "C2"));
  VKHLO_RETURN_IF_ERROR(ctx.CheckSize(high, operand.rank(), "edge_padding_high", "C2"));
  VKHLO_RETURN_IF_ERROR(ctx.CheckSize(interior, operand.rank(), "interior_padding", "C2"));
  VKHLO_RETURN_IF_ERROR(ctx.CheckInRange(interior, 0, INT64_MAX, "interior_padding", "C3"));
  std::vector<int64_t> dims;
  for (int64_t i = 0; i < operand.rank(); ++i) {
    const int64_t d = operand.dim(i);
    if (ir::IsDynamicDim(d)) {
      dims.push_back(ir::kDynamic);
      continue;
    }
    auto size = CheckedMul(std::max<int64_t>(d - 1, 0), interior[i]);
    if (size) size = CheckedAdd(*size, d);
    if (size) size = CheckedAdd(*size, low[i]);
    if (size) size = CheckedAdd(*size, high[i]);
    if (!size || *size < 0) {
      return ctx.Error(fmt::format("result dimension {} must be non-negative (C4)", i), "a size >= 0",
                       size ? fmt::format("{}", *size) : std::string("an overflow"));
    }
    dims.push_back(*size);
  }
  return TypeList{WithDims(operand, dims)};
}

Status VerifyReshape(const OpContext& ctx) {
  VKHLO_RETURN_IF_ERROR(ctx.RequireTensor(0, kAny, "operand (I1)"));
  VKHLO_RETURN_IF_ERROR(ctx.RequireResultTensor(0, kAny, "result"));
  const Type& operand = ctx.operand(0);
  const Type& result = ctx.result(0);
  VKHLO_RETURN_IF_ERROR(
      RequireSameElement(ctx, operand, result, "operand and result must have the same element type (C1)"));
  // With a dynamic size on either side the element counts are compared after refinement.
  if (operand.is_static() && result.is_static() && operand.num_elements() != result.num_elements()) {
    return ctx.Error("operand and result must have the same number of elements (C2)",
                     fmt::format("{} elements", operand.num_elements()),
                     fmt::format("{} elements ({})", result.num_elements(), result.ToString()));
  }
  return OkStatus();
}

StatusOr<TypeList> InferReverse(const OpContext& ctx) {
  VKHLO_RETURN_IF_ERROR(ctx.RequireTensor(0, kAny, "operand (I1)"));
  VKHLO_ASSIGN_OR_RETURN(auto dims, ctx.Ints("dimensions"));
  VKHLO_RETURN_IF_ERROR(ctx.CheckUnique(dims, "dimensions", "C2"));
  VKHLO_RETURN_IF_ERROR(ctx.CheckInRange(dims, 0, ctx.operand(0).rank(), "dimensions", "C3"));
  return TypeList{ctx.operand(0)};
}

StatusOr<TypeList> InferSlice(const OpContext& ctx) {
  VKHLO_RETURN_IF_ERROR(ctx.RequireTensor(0, kAny, "operand (I1)"));
  const Type& operand = ctx.operand(0);
  const int64_t rank = operand.rank();
  VKHLO_ASSIGN_OR_RETURN(auto start, ctx.Ints("start_indices"));
  VKHLO_ASSIGN_OR_RETURN(auto limit, ctx.Ints("limit_indices"));
  VKHLO_ASSIGN_OR_RETURN(auto strides, ctx.Ints("strides", std::vector<int64_t>(static_cast<size_t>(rank), 1)));
  VKHLO_RETURN_IF_ERROR(ctx.CheckSize(start, rank, "start_indices", "C2"));
  VKHLO_RETURN_IF_ERROR(ctx.CheckSize(limit, rank, "limit_indices", "C2"));
  VKHLO_RETURN_IF_ERROR(ctx.CheckSize(strides, rank, "strides", "C2"));
  std::vector<int64_t> dims;
  for (int64_t d = 0; d < rank; ++d) {
    if (start[d] < 0 || start[d] > limit[d] || (!operand.is_dynamic_dim(d) && limit[d] > operand.dim(d))) {
      return ctx.Error(fmt::format("start_indices[{0}] and limit_indices[{0}] must be ordered within dimension {0} (C3)",
                                   d),
                       fmt::format("0 <= start <= limit <= {}", operand.dim(d)),
                       fmt::format("start {}, limit {}", start[d], limit[d]));
    }
    if (strides[d] <= 0) {
      return ctx.Error("strides must be positive (C4)", "values > 0", IntListToString(strides));
    }
    const int64_t extent = limit[d] - start[d];
    dims.push_back(extent / strides[d] + (extent % strides[d] != 0 ? 1 : 0));
  }
  return TypeList{WithDims(operand, dims)};
}

StatusOr<TypeList> InferSort(const OpContext& ctx) {
  VKHLO_RETURN_IF_ERROR(ctx.RequireTensors(0, ctx.num_operands(), kAny, "inputs (I1)"));
  const Type& first = ctx.operand(0);
  for (size_t i = 1; i < ctx.num_operands(); ++i) {
    if (!SameShape(first, ctx.operand(i))) {
      return ctx.Error("inputs must have the same shape (C3)", first.ToString(), ctx.operand(i).ToString());
    }
  }
  VKHLO_ASSIGN_OR_RETURN(int64_t dimension, ctx.Int("dimension", -1));
  const int64_t rank = first.rank();
  if (dimension < -rank || dimension >= rank) {
    return ctx.Error("dimension must be in range (C4)", fmt::format("a value in [{}, {})", -rank, rank),
                     fmt::format("{}", dimension));
  }
  VKHLO_RETURN_IF_ERROR(ctx.Bool("is_stable", false).status());
  VKHLO_ASSIGN_OR_RETURN(RegionSignature comparator, ctx.Region(0, "comparator"));
  std::vector<Type> arguments;
  for (const Type& input : ctx.operands()) {
    arguments.push_back(ScalarOf(input));
    arguments.push_back(ScalarOf(input));
  }
  const Type boolean = Type::Scalar(ElementType::kI1);
  VKHLO_RETURN_IF_ERROR(ctx.CheckRegionType(comparator, arguments, std::span(&boolean, 1), "comparator", "C5"));
  return TypeList(ctx.operands().begin(), ctx.operands().end());
}

StatusOr<TypeList> InferTranspose(const OpContext& ctx) {
  VKHLO_RETURN_IF_ERROR(ctx.RequireTensor(0, kAny, "operand (I1)"));
  const Type& operand = ctx.operand(0);
  VKHLO_ASSIGN_OR_RETURN(auto permutation, ctx.Ints("permutation"));
  std::vector<int64_t> sorted = permutation;
  std::sort(sorted.begin(), sorted.end());
  std::vector<int64_t> iota(static_cast<size_t>(operand.rank()));
  std::iota(iota.begin(), iota.end(), 0);
  if (sorted != iota) {
    return ctx.Error("permutation must be a permutation of [0, ..., R-1] (C2)",
                     fmt::format("a permutation of {}", IntListToString(iota)), IntListToString(permutation));
  }
  std::vector<int64_t> dims;
  for (int64_t p : permutation) dims.push_back(operand.dim(p));
  Type result = WithDims(operand, dims);
  if (operand.is_quantized() && operand.quantization()->quantized_dimension) {
    // The quantization axis moves with its dimension.
    ir::QuantizedElement q = *operand.quantization();
    const int64_t axis = *q.quantized_dimension;
    for (size_t i = 0; i < permutation.size(); ++i) {
      if (permutation[i] == axis) q.quantized_dimension = static_cast<int32_t>(i);
    }
    result = Type::QuantizedTensor(std::move(q), dims);
  }
  return TypeList{result};
}

StatusOr<TypeList> InferTuple(const OpContext& ctx) {
  return TypeList{Type::Tuple(std::vector<Type>(ctx.operands().begin(), ctx.operands().end()))};
}

StatusOr<TypeList> InferGetTupleElement(const OpContext& ctx) {
  const Type& operand = ctx.operand(0);
  if (!operand.is_tuple()) return ctx.Error("operand (I1) has an invalid type", "a tuple", operand.ToString());
  VKHLO_ASSIGN_OR_RETURN(int64_t index, ctx.Int("index"));
  const int64_t size = static_cast<int64_t>(operand.tuple_elements().size());
  if (index < 0 || index >= size) {
    return ctx.Error("index must be in range (C1)", fmt::format("a value in [0, {})", size), fmt::format("{}", index));
  }
  return TypeList{operand.tuple_elements()[static_cast<size_t>(index)]};
}

// ---- Dynamic-shape ops: their shape operands are checked for rank and size, and against the
// result when they come from constants.

Status CheckShapeValues(const OpContext& ctx, size_t i, const Type& result, std::string_view label) {
  auto values = ConstantOperandInts(ctx, i);
  if (values && !CompatibleDims(*values, result.dims())) {
    return ctx.Error(fmt::format("{} must match the result shape", label), IntListToString(result.dims()),
                     IntListToString(*values));
  }
  return OkStatus();
}

Status VerifyDynamicBroadcastInDim(const OpContext& ctx) {
  VKHLO_RETURN_IF_ERROR(ctx.RequireTensor(0, kAny, "operand"));
  VKHLO_RETURN_IF_ERROR(ctx.RequireResultTensor(0, kAny, "result"));
  const Type& operand = ctx.operand(0);
  const Type& result = ctx.result(0);
  VKHLO_RETURN_IF_ERROR(RequireShapeOperand(ctx, 1, result.rank(), "output_dimensions"));
  VKHLO_RETURN_IF_ERROR(RequireSameElement(ctx, operand, result, "operand and result must have the same element type"));
  VKHLO_RETURN_IF_ERROR(CheckBroadcastDimensions(ctx, operand, result));
  std::vector<int64_t> seen;
  for (const char* name : {"known_expanding_dimensions", "known_nonexpanding_dimensions"}) {
    VKHLO_ASSIGN_OR_RETURN(auto dims, ctx.Ints(name, std::vector<int64_t>{}));
    VKHLO_RETURN_IF_ERROR(ctx.CheckInRange(dims, 0, operand.rank(), name, ""));
    seen.insert(seen.end(), dims.begin(), dims.end());
  }
  VKHLO_RETURN_IF_ERROR(ctx.CheckUnique(seen, "known_expanding_dimensions and known_nonexpanding_dimensions", ""));
  return CheckShapeValues(ctx, 1, result, "output_dimensions");
}

Status VerifyDynamicIota(const OpContext& ctx) {
  VKHLO_RETURN_IF_ERROR(ctx.RequireResultTensor(0, kInt | kFloat | kComplex | kQuantized, "output"));
  VKHLO_RETURN_IF_ERROR(RequireShapeOperand(ctx, 0, ctx.result(0).rank(), "output_shape"));
  VKHLO_RETURN_IF_ERROR(CheckIotaDimension(ctx, ctx.result(0)));
  return CheckShapeValues(ctx, 0, ctx.result(0), "output_shape");
}

Status VerifyDynamicPad(const OpContext& ctx) {
  VKHLO_RETURN_IF_ERROR(ctx.RequireTensor(0, kAny, "operand"));
  VKHLO_RETURN_IF_ERROR(ctx.RequireScalar(1, kAny, "padding_value"));
  VKHLO_RETURN_IF_ERROR(ctx.RequireResultTensor(0, kAny, "result"));
  const Type& operand = ctx.operand(0);
  VKHLO_RETURN_IF_ERROR(RequireSameElement(ctx, operand, ctx.operand(1),
                                           "operand and padding_value must have the same element type"));
  VKHLO_RETURN_IF_ERROR(RequireSameElement(ctx, operand, ctx.result(0),
                                           "operand and result must have the same element type"));
  const char* labels[] = {"edge_padding_low", "edge_padding_high", "interior_padding"};
  for (size_t i = 2; i < 5; ++i) VKHLO_RETURN_IF_ERROR(RequireShapeOperand(ctx, i, operand.rank(), labels[i - 2]));
  if (ctx.result(0).rank() != operand.rank()) {
    return ctx.Error("result must have the operand's rank", fmt::format("rank {}", operand.rank()),
                     ctx.result(0).ToString());
  }
  auto low = ConstantOperandInts(ctx, 2), high = ConstantOperandInts(ctx, 3), interior = ConstantOperandInts(ctx, 4);
  if (low && high && interior) {
    for (int64_t i = 0; i < operand.rank(); ++i) {
      const int64_t d = operand.dim(i);
      if (ir::IsDynamicDim(d) || ctx.result(0).is_dynamic_dim(i)) continue;  // checked once refined
      auto size = CheckedMul(std::max<int64_t>(d - 1, 0), (*interior)[i]);
      if (size) size = CheckedAdd(*size, d);
      if (size) size = CheckedAdd(*size, (*low)[i]);
      if (size) size = CheckedAdd(*size, (*high)[i]);
      if (!size || *size != ctx.result(0).dim(i) || (*interior)[i] < 0) {
        return ctx.Error(fmt::format("result dimension {} must be the padded operand size", i),
                         size ? fmt::format("{}", *size) : std::string("a size that fits in int64"),
                         fmt::format("{}", ctx.result(0).dim(i)));
      }
    }
  }
  return OkStatus();
}

Status VerifyDynamicReshape(const OpContext& ctx) {
  VKHLO_RETURN_IF_ERROR(ctx.RequireTensor(0, kAny, "operand"));
  VKHLO_RETURN_IF_ERROR(ctx.RequireResultTensor(0, kAny, "result"));
  VKHLO_RETURN_IF_ERROR(RequireShapeOperand(ctx, 1, ctx.result(0).rank(), "output_shape"));
  VKHLO_RETURN_IF_ERROR(VerifyReshape(ctx));
  return CheckShapeValues(ctx, 1, ctx.result(0), "output_shape");
}

Status VerifyRealDynamicSlice(const OpContext& ctx) {
  VKHLO_RETURN_IF_ERROR(ctx.RequireTensor(0, kAny, "operand"));
  VKHLO_RETURN_IF_ERROR(ctx.RequireResultTensor(0, kAny, "result"));
  const Type& operand = ctx.operand(0);
  const char* labels[] = {"start_indices", "limit_indices", "strides"};
  for (size_t i = 1; i < 4; ++i) VKHLO_RETURN_IF_ERROR(RequireShapeOperand(ctx, i, operand.rank(), labels[i - 1]));
  for (size_t i = 2; i < 4; ++i) {
    if (ctx.operand(i) != ctx.operand(1)) {
      return ctx.Error("start_indices, limit_indices and strides must have the same type", ctx.operand(1).ToString(),
                       ctx.operand(i).ToString());
    }
  }
  VKHLO_RETURN_IF_ERROR(RequireSameElement(ctx, operand, ctx.result(0),
                                           "operand and result must have the same element type"));
  if (ctx.result(0).rank() != operand.rank()) {
    return ctx.Error("result must have the operand's rank", fmt::format("rank {}", operand.rank()),
                     ctx.result(0).ToString());
  }
  return OkStatus();
}

constexpr OpRule kRules[] = {
    {OpCode::kBroadcastInDim, nullptr, VerifyBroadcastInDim},
    {OpCode::kBroadcast, InferBroadcast, nullptr, "result type must be broadcast_sizes followed by the operand's shape",
     ResultMatch::kCompatible},
    {OpCode::kConcatenate, InferConcatenate, nullptr,
     "result type must be the inputs' concatenated along the dimension (C5, C6)", ResultMatch::kCompatible},
    {OpCode::kDynamicSlice, InferDynamicSlice, nullptr, "result type must have shape slice_sizes (C1, C5)",
     ResultMatch::kCompatible},
    {OpCode::kDynamicUpdateSlice, InferDynamicUpdateSlice, nullptr, "result type must match the operand's (C1)",
     ResultMatch::kCompatible},
    {OpCode::kGetDimensionSize, InferGetDimensionSize, nullptr, "result type must be tensor<i32>"},
    {OpCode::kIota, nullptr, VerifyIota},
    {OpCode::kPad, InferPad, nullptr, "result type must be the padded operand's (C1, C4)", ResultMatch::kCompatible},
    {OpCode::kReshape, nullptr, VerifyReshape},
    {OpCode::kReverse, InferReverse, nullptr, "result type must match the operand's (C1)", ResultMatch::kCompatible},
    {OpCode::kSlice, InferSlice, nullptr, "result type must be the sliced operand's (C1, C5)",
     ResultMatch::kCompatible},
    {OpCode::kSort, InferSort, nullptr, "result types must match the inputs' (C2)"},
    {OpCode::kTranspose, InferTranspose, nullptr, "result type must be the permuted operand's (C1, C3)",
     ResultMatch::kCompatible},
    {OpCode::kTuple, InferTuple, nullptr, "result type must be the tuple of the operands' types (C2)"},
    {OpCode::kGetTupleElement, InferGetTupleElement, nullptr,
     "result type must be the type of the operand's element at index (C2)"},
    {OpCode::kDynamicBroadcastInDim, nullptr, VerifyDynamicBroadcastInDim},
    {OpCode::kDynamicIota, nullptr, VerifyDynamicIota},
    {OpCode::kDynamicPad, nullptr, VerifyDynamicPad},
    {OpCode::kDynamicReshape, nullptr, VerifyDynamicReshape},
    {OpCode::kRealDynamicSlice, nullptr, VerifyRealDynamicSlice},
};

}  // namespace

std::span<const OpRule> DataMovementRules() { return kRules; }

}  // namespace vkhlo::verify
