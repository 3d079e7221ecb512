// Ops that rearrange whole tensors: broadcast_in_dim (and the legacy broadcast and
// dynamic_broadcast_in_dim), reshape (and dynamic_reshape), transpose, reverse, concatenate,
// iota (and dynamic_iota), get_dimension_size.
//
// Each maps a result index to an operand index by strides (zero for a broadcast dimension,
// negative for a reversed one) and copies storage bytes. A splat (or one-element) operand gives
// a splat result, so broadcasting `dense<0.0> : tensor<f32>` to a huge shape costs nothing.
#include <fmt/format.h>

#include "interp/data_movement.h"
#include "interp/shape_util.h"

namespace vkhlo::interp {
namespace {

using ir::Literal;
using ir::Operation;

// A result of `type` filled from `operand` by a strided walk over the result's indices.
StatusOr<InterpValues> StridedResult(const ir::Type& type, const Literal& operand, int64_t src_base,
                                     const Dims& src_strides) {
  // Every result element is the same one: keep it a splat.
  if (operand.is_splat() || (operand.num_elements() == 1 && type.num_elements() > 1)) {
    VKHLO_ASSIGN_OR_RETURN(Literal result, Literal::CreateSplat(type, operand.raw()));
    return InterpValues{InterpValue::Tensor(std::move(result))};
  }
  VKHLO_ASSIGN_OR_RETURN(Literal result, Literal::Create(type));
  VKHLO_ASSIGN_OR_RETURN(std::span<uint8_t> out, result.mutable_raw());
  const Dims& dims = type.dims();
  StridedCopy(ElementReader(operand), src_base, src_strides, out.data(), 0, RowMajorStrides(dims), dims);
  return InterpValues{InterpValue::Tensor(std::move(result))};
}

// result[i] = operand[j] with j[k] = dim(operand, k) == 1 ? 0 : i[broadcast_dimensions[k]].
StatusOr<InterpValues> BroadcastInDim(EvalContext& context, const Operation& op, const Literal& operand,
                                      const Dims& result_dims, const Dims& broadcast_dims) {
  const Dims& od = operand.type().dims();
  const int64_t rank = static_cast<int64_t>(result_dims.size());
  if (broadcast_dims.size() != od.size()) {
    return context.OpError(op, fmt::format("broadcast_dimensions {} must have one entry per operand dimension ({})",
                                           DimsToString(broadcast_dims), od.size()));
  }
  VKHLO_RETURN_IF_ERROR(CheckDimensionList(context, op, "broadcast_dimensions", broadcast_dims, rank));
  for (size_t k = 0; k < od.size(); ++k) {
    if (od[k] != 1 && od[k] != result_dims[broadcast_dims[k]]) {
      return context.OpError(op, fmt::format("operand dimension {} (size {}) cannot broadcast to result dimension "
                                             "{} (size {})",
                                             k, od[k], broadcast_dims[k], result_dims[broadcast_dims[k]]));
    }
  }
  VKHLO_ASSIGN_OR_RETURN(ir::Type type, ResultTensorType(context, op, 0, result_dims, operand.element_type()));
  const Dims operand_strides = RowMajorStrides(od);
  Dims src_strides(result_dims.size(), 0);
  for (size_t k = 0; k < od.size(); ++k) {
    if (od[k] != 1) src_strides[broadcast_dims[k]] = operand_strides[k];
  }
  return StridedResult(type, operand, 0, src_strides);
}

StatusOr<InterpValues> EvalBroadcastInDim(EvalContext& context, const Operation& op, const InterpValues& operands) {
  VKHLO_RETURN_IF_ERROR(CheckOperandCount(context, op, operands, 1));
  VKHLO_ASSIGN_OR_RETURN(const Literal* operand, TensorOperand(context, op, operands, 0));
  VKHLO_ASSIGN_OR_RETURN(Dims broadcast_dims, I64VectorAttr(context, op, "broadcast_dimensions"));
  VKHLO_ASSIGN_OR_RETURN(const ir::Type* result_type, DeclaredTensorResult(context, op));
  const ir::Type& declared = *result_type;
  return BroadcastInDim(context, op, *operand, declared.dims(), broadcast_dims);
}

StatusOr<InterpValues> EvalDynamicBroadcastInDim(EvalContext& context, const Operation& op,
                                                 const InterpValues& operands) {
  VKHLO_RETURN_IF_ERROR(CheckOperandCount(context, op, operands, 2));
  VKHLO_ASSIGN_OR_RETURN(const Literal* operand, TensorOperand(context, op, operands, 0));
  VKHLO_ASSIGN_OR_RETURN(const Literal* shape, TensorOperand(context, op, operands, 1));
  VKHLO_ASSIGN_OR_RETURN(Dims result_dims, IntegerTensorValues(context, op, *shape, "output_dimensions"));
  for (int64_t d : result_dims) {
    if (d < 0) return context.OpError(op, "output_dimensions " + DimsToString(result_dims) + " has a negative size");
  }
  VKHLO_ASSIGN_OR_RETURN(Dims broadcast_dims, I64VectorAttr(context, op, "broadcast_dimensions"));
  return BroadcastInDim(context, op, *operand, result_dims, broadcast_dims);
}

// Legacy broadcast: result shape is broadcast_sizes ++ shape(operand).
StatusOr<InterpValues> EvalBroadcast(EvalContext& context, const Operation& op, const InterpValues& operands) {
  VKHLO_RETURN_IF_ERROR(CheckOperandCount(context, op, operands, 1));
  VKHLO_ASSIGN_OR_RETURN(const Literal* operand, TensorOperand(context, op, operands, 0));
  VKHLO_ASSIGN_OR_RETURN(Dims sizes, I64VectorAttr(context, op, "broadcast_sizes"));
  for (int64_t s : sizes) {
    if (s < 0) return context.OpError(op, "broadcast_sizes " + DimsToString(sizes) + " has a negative size");
  }
  Dims result_dims = sizes;
  const Dims& od = operand->type().dims();
  result_dims.insert(result_dims.end(), od.begin(), od.end());
  VKHLO_ASSIGN_OR_RETURN(ir::Type type, ResultTensorType(context, op, 0, result_dims, operand->element_type()));
  Dims src_strides(sizes.size(), 0);
  const Dims operand_strides = RowMajorStrides(od);
  src_strides.insert(src_strides.end(), operand_strides.begin(), operand_strides.end());
  return StridedResult(type, *operand, 0, src_strides);
}

// Same elements in the same row-major order, another shape.
StatusOr<InterpValues> Reshape(EvalContext& context, const Operation& op, const Literal& operand,
                               const Dims& result_dims) {
  if (NumElements(result_dims) != operand.num_elements()) {
    return context.OpError(op, fmt::format("cannot reshape {} ({} elements) to shape {}", operand.type().ToString(),
                                           operand.num_elements(), DimsToString(result_dims)));
  }
  VKHLO_ASSIGN_OR_RETURN(ir::Type type, ResultTensorType(context, op, 0, result_dims, operand.element_type()));
  if (operand.is_splat()) {
    VKHLO_ASSIGN_OR_RETURN(Literal result, Literal::CreateSplat(type, operand.raw()));
    return InterpValues{InterpValue::Tensor(std::move(result))};
  }
  std::span<const uint8_t> bytes = operand.raw();
  VKHLO_ASSIGN_OR_RETURN(Literal result, Literal::FromBytes(type, std::vector<uint8_t>(bytes.begin(), bytes.end())));
  return InterpValues{InterpValue::Tensor(std::move(result))};
}

StatusOr<InterpValues> EvalReshape(EvalContext& context, const Operation& op, const InterpValues& operands) {
  VKHLO_RETURN_IF_ERROR(CheckOperandCount(context, op, operands, 1));
  VKHLO_ASSIGN_OR_RETURN(const Literal* operand, TensorOperand(context, op, operands, 0));
  VKHLO_ASSIGN_OR_RETURN(const ir::Type* result_type, DeclaredTensorResult(context, op));
  const ir::Type& declared = *result_type;
  return Reshape(context, op, *operand, declared.dims());
}

StatusOr<InterpValues> EvalDynamicReshape(EvalContext& context, const Operation& op, const InterpValues& operands) {
  VKHLO_RETURN_IF_ERROR(CheckOperandCount(context, op, operands, 2));
  VKHLO_ASSIGN_OR_RETURN(const Literal* operand, TensorOperand(context, op, operands, 0));
  VKHLO_ASSIGN_OR_RETURN(const Literal* shape, TensorOperand(context, op, operands, 1));
  VKHLO_ASSIGN_OR_RETURN(Dims result_dims, IntegerTensorValues(context, op, *shape, "output_shape"));
  for (int64_t d : result_dims) {
    if (d < 0) return context.OpError(op, "output_shape " + DimsToString(result_dims) + " has a negative size");
  }
  return Reshape(context, op, *operand, result_dims);
}

// result[i] = operand[j] with i[d] = j[permutation[d]].
StatusOr<InterpValues> EvalTranspose(EvalContext& context, const Operation& op, const InterpValues& operands) {
  VKHLO_RETURN_IF_ERROR(CheckOperandCount(context, op, operands, 1));
  VKHLO_ASSIGN_OR_RETURN(const Literal* operand, TensorOperand(context, op, operands, 0));
  VKHLO_ASSIGN_OR_RETURN(Dims permutation, I64VectorAttr(context, op, "permutation"));
  const Dims& od = operand->type().dims();
  if (permutation.size() != od.size()) {
    return context.OpError(op,
                           fmt::format("permutation {} must have {} entries", DimsToString(permutation), od.size()));
  }
  VKHLO_RETURN_IF_ERROR(CheckDimensionList(context, op, "permutation", permutation, operand->type().rank()));
  const Dims operand_strides = RowMajorStrides(od);
  Dims result_dims(od.size()), src_strides(od.size());
  for (size_t d = 0; d < od.size(); ++d) {
    result_dims[d] = od[permutation[d]];
    src_strides[d] = operand_strides[permutation[d]];
  }
  VKHLO_ASSIGN_OR_RETURN(ir::Type type, ResultTensorType(context, op, 0, result_dims, operand->element_type()));
  return StridedResult(type, *operand, 0, src_strides);
}

StatusOr<InterpValues> EvalReverse(EvalContext& context, const Operation& op, const InterpValues& operands) {
  VKHLO_RETURN_IF_ERROR(CheckOperandCount(context, op, operands, 1));
  VKHLO_ASSIGN_OR_RETURN(const Literal* operand, TensorOperand(context, op, operands, 0));
  VKHLO_ASSIGN_OR_RETURN(Dims dimensions, I64VectorAttr(context, op, "dimensions"));
  VKHLO_RETURN_IF_ERROR(CheckDimensionList(context, op, "dimensions", dimensions, operand->type().rank()));
  const Dims& od = operand->type().dims();
  Dims src_strides = RowMajorStrides(od);
  int64_t base = 0;
  for (int64_t d : dimensions) {
    if (od[d] > 0) base += (od[d] - 1) * src_strides[d];
    src_strides[d] = -src_strides[d];
  }
  VKHLO_ASSIGN_OR_RETURN(ir::Type type, ResultTensorType(context, op, 0, od, operand->element_type()));
  return StridedResult(type, *operand, base, src_strides);
}

StatusOr<InterpValues> EvalConcatenate(EvalContext& context, const Operation& op, const InterpValues& operands) {
  VKHLO_RETURN_IF_ERROR(CheckOperandCount(context, op, operands, 1, /*at_least=*/true));
  VKHLO_ASSIGN_OR_RETURN(const Literal* first, TensorOperand(context, op, operands, 0));
  VKHLO_ASSIGN_OR_RETURN(int64_t dimension, I64Attr(context, op, "dimension"));
  const int64_t rank = first->type().rank();
  if (dimension < 0 || dimension >= rank) {
    return context.OpError(op, fmt::format("dimension {} is outside [0, {})", dimension, rank));
  }
  std::vector<const Literal*> inputs;
  Dims result_dims = first->type().dims();
  result_dims[dimension] = 0;
  for (size_t k = 0; k < operands.size(); ++k) {
    VKHLO_ASSIGN_OR_RETURN(const Literal* input, TensorOperand(context, op, operands, k));
    const Dims& dims = input->type().dims();
    bool same = input->element_type() == first->element_type() && input->type().rank() == rank;
    for (int64_t d = 0; same && d < rank; ++d) same = d == dimension || dims[d] == result_dims[d];
    if (!same) {
      return context.OpError(op, fmt::format("input {} ({}) does not match input 0 ({}) outside dimension {}", k,
                                             input->type().ToString(), first->type().ToString(), dimension));
    }
    result_dims[dimension] += dims[dimension];
    inputs.push_back(input);
  }
  VKHLO_ASSIGN_OR_RETURN(ir::Type type, ResultTensorType(context, op, 0, result_dims, first->element_type()));
  VKHLO_ASSIGN_OR_RETURN(Literal result, Literal::Create(type));
  VKHLO_ASSIGN_OR_RETURN(std::span<uint8_t> out, result.mutable_raw());
  // View every tensor as [outer, dim * inner]; input k fills columns [offset, offset + its width).
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < dimension; ++d) outer *= result_dims[d];
  for (int64_t d = dimension + 1; d < rank; ++d) inner *= result_dims[d];
  const int64_t result_row = result_dims[dimension] * inner;
  int64_t offset = 0;
  for (const Literal* input : inputs) {
    const int64_t row = input->type().dim(dimension) * inner;
    const Dims dims = {outer, row};
    const Dims src_strides = {row, 1};
    const Dims dst_strides = {result_row, 1};
    StridedCopy(ElementReader(*input), 0, src_strides, out.data(), offset, dst_strides, dims);
    offset += row;
  }
  return InterpValues{InterpValue::Tensor(std::move(result))};
}

// output[i] = i[iota_dimension], converted to the element type.
StatusOr<InterpValues> Iota(EvalContext& context, const Operation& op, const Dims& dims, int64_t iota_dimension) {
  VKHLO_ASSIGN_OR_RETURN(const ir::Type* result_type, DeclaredTensorResult(context, op));
  const ir::Type& declared = *result_type;
  const ir::ElementType et = declared.element_type();
  if (declared.is_quantized() || !(ir::IsInteger(et) || ir::IsFloat(et) || ir::IsComplex(et))) {
    return context.OpError(
        op, "result must be a tensor of integer, floating-point or complex type, found " + declared.ToString());
  }
  VKHLO_ASSIGN_OR_RETURN(ir::Type type, ResultTensorType(context, op, 0, dims, et));
  if (iota_dimension < 0 || iota_dimension >= type.rank()) {
    return context.OpError(op, fmt::format("iota_dimension {} is outside [0, {})", iota_dimension, type.rank()));
  }
  VKHLO_ASSIGN_OR_RETURN(Literal result, Literal::Create(type));
  int64_t inner = 1;
  for (int64_t d = iota_dimension + 1; d < type.rank(); ++d) inner *= dims[d];
  const int64_t size = dims[iota_dimension];
  for (int64_t i = 0; i < result.num_elements(); ++i) {
    const int64_t value = (i / inner) % size;
    if (ir::IsInteger(et)) {
      result.SetInt(i, value);
    } else if (ir::IsFloat(et)) {
      result.SetFloat(i, static_cast<double>(value));
    } else {
      result.SetComplex(i, {static_cast<double>(value), 0.0});
    }
  }
  return InterpValues{InterpValue::Tensor(std::move(result))};
}

StatusOr<InterpValues> EvalIota(EvalContext& context, const Operation& op, const InterpValues& operands) {
  VKHLO_RETURN_IF_ERROR(CheckOperandCount(context, op, operands, 0));
  VKHLO_ASSIGN_OR_RETURN(int64_t iota_dimension, I64Attr(context, op, "iota_dimension"));
  VKHLO_ASSIGN_OR_RETURN(const ir::Type* result_type, DeclaredTensorResult(context, op));
  const ir::Type& declared = *result_type;
  return Iota(context, op, declared.dims(), iota_dimension);
}

StatusOr<InterpValues> EvalDynamicIota(EvalContext& context, const Operation& op, const InterpValues& operands) {
  VKHLO_RETURN_IF_ERROR(CheckOperandCount(context, op, operands, 1));
  VKHLO_ASSIGN_OR_RETURN(const Literal* shape, TensorOperand(context, op, operands, 0));
  VKHLO_ASSIGN_OR_RETURN(Dims dims, IntegerTensorValues(context, op, *shape, "output_shape"));
  for (int64_t d : dims) {
    if (d < 0) return context.OpError(op, "output_shape " + DimsToString(dims) + " has a negative size");
  }
  VKHLO_ASSIGN_OR_RETURN(int64_t iota_dimension, I64Attr(context, op, "iota_dimension"));
  return Iota(context, op, dims, iota_dimension);
}

StatusOr<InterpValues> EvalGetDimensionSize(EvalContext& context, const Operation& op, const InterpValues& operands) {
  VKHLO_RETURN_IF_ERROR(CheckOperandCount(context, op, operands, 1));
  VKHLO_ASSIGN_OR_RETURN(const Literal* operand, TensorOperand(context, op, operands, 0));
  VKHLO_ASSIGN_OR_RETURN(int64_t dimension, I64Attr(context, op, "dimension"));
  if (dimension < 0 || dimension >= operand->type().rank()) {
    return context.OpError(op, fmt::format("dimension {} is outside [0, {})", dimension, operand->type().rank()));
  }
  VKHLO_ASSIGN_OR_RETURN(ir::Type type, ResultTensorType(context, op, 0, {}, ir::ElementType::kS32));
  VKHLO_ASSIGN_OR_RETURN(Literal result, Literal::Create(type));
  result.SetInt(0, operand->type().dim(dimension));
  return InterpValues{InterpValue::Tensor(std::move(result))};
}

}  // namespace

void RegisterLayoutOps(OpRegistry& r) {
  using ir::OpCode;
  r.Register(OpCode::kBroadcastInDim, EvalBroadcastInDim);
  r.Register(OpCode::kBroadcast, EvalBroadcast);
  r.Register(OpCode::kDynamicBroadcastInDim, EvalDynamicBroadcastInDim);
  r.Register(OpCode::kReshape, EvalReshape);
  r.Register(OpCode::kDynamicReshape, EvalDynamicReshape);
  r.Register(OpCode::kTranspose, EvalTranspose);
  r.Register(OpCode::kReverse, EvalReverse);
  r.Register(OpCode::kConcatenate, EvalConcatenate);
  r.Register(OpCode::kIota, EvalIota);
  r.Register(OpCode::kDynamicIota, EvalDynamicIota);
  r.Register(OpCode::kGetDimensionSize, EvalGetDimensionSize);
}

}  // namespace vkhlo::interp
