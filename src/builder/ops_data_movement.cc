// Constants, iota, and the ops that move data or change shapes: broadcast, reshape, transpose,
// reverse, slices, concatenate, pad, gather, tuples.
#include <fmt/format.h>

#include "builder/builder_state.h"
#include "builder/literal_conversion.h"
#include "builder/type_conversion.h"
#include "vkhlo/xla_builder.h"

namespace vkhlo {
namespace {

using internal::BuilderState;
using internal::OpCall;
using ir::OpCode;
using ir::Value;

// Emits one op whose results the verifier infers, for an OpCall.
XlaOp Inferred(OpCall& call, OpCode code, std::vector<Value*> operands, std::vector<ir::NamedAttribute> attributes) {
  if (!call.ok()) return call.Invalid();
  auto op = internal::EmitInferred(call.state(), call.block(), code, std::move(operands), std::move(attributes));
  if (!op.ok()) return call.Fail(op.status());
  return call.Finish((*op)->result(0));
}

StatusOr<Value*> EmitLiteral(BuilderState& state, ir::Block& block, const Literal& literal) {
  const Shape& shape = literal.shape();
  if (shape.IsToken()) return InvalidArgumentError("a token is not a constant (use CreateToken)");
  if (shape.IsTuple()) {
    std::vector<Value*> elements;
    for (const Literal& element : literal.tuple_elements()) {
      VKHLO_ASSIGN_OR_RETURN(Value * value, EmitLiteral(state, block, element));
      elements.push_back(value);
    }
    VKHLO_ASSIGN_OR_RETURN(ir::Operation * tuple, internal::EmitInferred(state, block, OpCode::kTuple, elements));
    return tuple->result(0);
  }
  VKHLO_ASSIGN_OR_RETURN(ir::Literal value, internal::ToIrLiteral(literal));
  return internal::EmitConstant(state, block, std::move(value));
}

XlaOp LiteralOp(const char* name, XlaBuilder* builder, const Literal& literal) {
  OpCall call(name, builder, {});
  if (!call.ok()) return call.Invalid();
  return call.Finish(EmitLiteral(call.state(), call.block(), literal));
}

// The array type of operand `i` of `call`, or an error naming what it is instead.
StatusOr<ir::Type> ArrayOperand(const OpCall& call, size_t i) {
  const ir::Type& type = call.type(i);
  if (!type.is_tensor()) {
    return InvalidArgumentError(fmt::format("operand {} must be an array, found {}", i,
                                            internal::ShapeOfValue(call.value(i)).ToString()));
  }
  return type;
}

XlaOp ReshapeTo(OpCall& call, Value* operand, const std::vector<int64_t>& new_sizes) {
  if (!operand->type().is_tensor()) return call.Fail(InvalidArgumentError("only arrays can be reshaped"));
  auto op = internal::EmitTyped(call.state(), call.block(), OpCode::kReshape, {operand},
                                {operand->type().WithDims(new_sizes)});
  if (!op.ok()) return call.Fail(op.status());
  return call.Finish((*op)->result(0));
}

}  // namespace

XlaOp ConstantLiteral(XlaBuilder* builder, const Literal& literal) { return LiteralOp("ConstantLiteral", builder, literal); }
XlaOp Zero(XlaBuilder* builder, PrimitiveType type) { return LiteralOp("Zero", builder, LiteralUtil::Zero(type)); }
XlaOp One(XlaBuilder* builder, PrimitiveType type) { return LiteralOp("One", builder, LiteralUtil::One(type)); }
XlaOp MinValue(XlaBuilder* builder, PrimitiveType type) {
  return LiteralOp("MinValue", builder, LiteralUtil::MinValue(type));
}
XlaOp MaxValue(XlaBuilder* builder, PrimitiveType type) {
  return LiteralOp("MaxValue", builder, LiteralUtil::MaxValue(type));
}

XlaOp Iota(XlaBuilder* builder, const Shape& shape, int64_t iota_dimension) {
  OpCall call("Iota", builder, {});
  if (!call.ok()) return call.Invalid();
  auto type = internal::ToIrType(shape);
  if (!type.ok()) return call.Fail(type.status());
  auto op = internal::EmitTyped(call.state(), call.block(), OpCode::kIota, {}, {*type},
                                {{"iota_dimension", internal::I64Attr(iota_dimension)}});
  if (!op.ok()) return call.Fail(op.status());
  return call.Finish((*op)->result(0));
}

XlaOp Iota(XlaBuilder* builder, PrimitiveType type, int64_t size) {
  return Iota(builder, ShapeUtil::MakeShape(type, {size}), 0);
}

XlaOp Broadcast(XlaOp operand, const std::vector<int64_t>& broadcast_sizes) {
  OpCall call("Broadcast", {operand});
  if (!call.ok()) return call.Invalid();
  auto type = ArrayOperand(call, 0);
  if (!type.ok()) return call.Fail(type.status());
  // As broadcast_in_dim: the operand's dimensions become the minor ones.
  std::vector<int64_t> dims = broadcast_sizes;
  std::vector<int64_t> mapping;
  for (int64_t d = 0; d < type->rank(); ++d) {
    mapping.push_back(static_cast<int64_t>(broadcast_sizes.size()) + d);
    dims.push_back(type->dim(d));
  }
  return call.Finish(internal::EmitBroadcastInDim(call.state(), call.block(), call.value(0), dims, mapping));
}

XlaOp BroadcastInDim(XlaOp operand, const std::vector<int64_t>& out_dim_size,
                     const std::vector<int64_t>& broadcast_dimensions) {
  OpCall call("BroadcastInDim", {operand});
  if (!call.ok()) return call.Invalid();
  return call.Finish(
      internal::EmitBroadcastInDim(call.state(), call.block(), call.value(0), out_dim_size, broadcast_dimensions));
}

XlaOp Reshape(XlaOp operand, const std::vector<int64_t>& dimensions, const std::vector<int64_t>& new_sizes) {
  OpCall call("Reshape", {operand});
  if (!call.ok()) return call.Invalid();
  Value* value = call.value(0);
  bool identity = true;
  for (size_t i = 0; i < dimensions.size(); ++i) identity &= dimensions[i] == static_cast<int64_t>(i);
  if (!identity) {
    // Collapsing in another order is a transpose to that order first.
    auto transposed = internal::EmitInferred(call.state(), call.block(), OpCode::kTranspose, {value},
                                             {{"permutation", internal::I64Array(dimensions)}});
    if (!transposed.ok()) return call.Fail(transposed.status());
    value = (*transposed)->result(0);
  } else if (value->type().is_tensor() && static_cast<int64_t>(dimensions.size()) != value->type().rank()) {
    return call.Fail(InvalidArgumentError(fmt::format("dimensions [{}] must be a permutation of the operand's {} "
                                                      "dimensions",
                                                      fmt::join(dimensions, ","), value->type().rank())));
  }
  return ReshapeTo(call, value, new_sizes);
}

XlaOp Reshape(XlaOp operand, const std::vector<int64_t>& new_sizes) {
  OpCall call("Reshape", {operand});
  if (!call.ok()) return call.Invalid();
  return ReshapeTo(call, call.value(0), new_sizes);
}

XlaOp Reshape(const Shape& shape, XlaOp operand) {
  OpCall call("Reshape", {operand});
  if (!call.ok()) return call.Invalid();
  if (!shape.IsArray() || ShapeUtil::ValidateShape(shape).ok() == false) {
    return call.Fail(InvalidArgumentError("the target shape " + shape.ToString() + " is not a valid array shape"));
  }
  const ir::Type& type = call.type(0);
  if (type.is_tensor() && internal::FromElementType(type.element_type()) != shape.element_type()) {
    return call.Fail(InvalidArgumentError("the target shape " + shape.ToString() + " has another element type"));
  }
  return ReshapeTo(call, call.value(0), shape.dimensions());
}

XlaOp Collapse(XlaOp operand, const std::vector<int64_t>& dimensions) {
  OpCall call("Collapse", {operand});
  if (!call.ok()) return call.Invalid();
  auto type = ArrayOperand(call, 0);
  if (!type.ok()) return call.Fail(type.status());
  if (dimensions.empty()) return call.Finish(call.value(0));
  for (size_t i = 0; i < dimensions.size(); ++i) {
    const bool in_range = dimensions[i] >= 0 && dimensions[i] < type->rank();
    if (!in_range || (i > 0 && dimensions[i] != dimensions[i - 1] + 1)) {
      return call.Fail(InvalidArgumentError(fmt::format(
          "dimensions [{}] must be consecutive, in increasing order and in [0, {})", fmt::join(dimensions, ","),
          type->rank())));
    }
  }
  std::vector<int64_t> sizes;
  for (int64_t d = 0; d < type->rank(); ++d) {
    if (d > dimensions.front() && d <= dimensions.back()) {
      sizes.back() *= type->dim(d);
    } else {
      sizes.push_back(type->dim(d));
    }
  }
  return ReshapeTo(call, call.value(0), sizes);
}

XlaOp Transpose(XlaOp operand, const std::vector<int64_t>& permutation) {
  OpCall call("Transpose", {operand});
  return Inferred(call, OpCode::kTranspose, call.values(), {{"permutation", internal::I64Array(permutation)}});
}

XlaOp Rev(XlaOp operand, const std::vector<int64_t>& dimensions) {
  OpCall call("Rev", {operand});
  return Inferred(call, OpCode::kReverse, call.values(), {{"dimensions", internal::I64Array(dimensions)}});
}

XlaOp Slice(XlaOp operand, const std::vector<int64_t>& start_indices, const std::vector<int64_t>& limit_indices,
            const std::vector<int64_t>& strides) {
  OpCall call("Slice", {operand});
  return Inferred(call, OpCode::kSlice, call.values(),
                  {{"start_indices", internal::I64Array(start_indices)},
                   {"limit_indices", internal::I64Array(limit_indices)},
                   {"strides", internal::I64Array(strides)}});
}

XlaOp SliceInDim(XlaOp operand, int64_t start_index, int64_t limit_index, int64_t stride, int64_t dimno) {
  OpCall call("SliceInDim", {operand});
  if (!call.ok()) return call.Invalid();
  auto type = ArrayOperand(call, 0);
  if (!type.ok()) return call.Fail(type.status());
  if (dimno < 0 || dimno >= type->rank()) {
    return call.Fail(InvalidArgumentError(fmt::format("dimno {} must be in [0, {})", dimno, type->rank())));
  }
  std::vector<int64_t> starts(static_cast<size_t>(type->rank()), 0), limits = type->dims(),
      strides(static_cast<size_t>(type->rank()), 1);
  starts[static_cast<size_t>(dimno)] = start_index;
  limits[static_cast<size_t>(dimno)] = limit_index;
  strides[static_cast<size_t>(dimno)] = stride;
  return Inferred(call, OpCode::kSlice, call.values(),
                  {{"start_indices", internal::I64Array(starts)},
                   {"limit_indices", internal::I64Array(limits)},
                   {"strides", internal::I64Array(strides)}});
}

XlaOp DynamicSlice(XlaOp operand, const std::vector<XlaOp>& start_indices, const std::vector<int64_t>& slice_sizes) {
  std::vector<XlaOp> operands = {operand};
  operands.insert(operands.end(), start_indices.begin(), start_indices.end());
  OpCall call("DynamicSlice", operands);
  return Inferred(call, OpCode::kDynamicSlice, call.values(), {{"slice_sizes", internal::I64Array(slice_sizes)}});
}

XlaOp DynamicUpdateSlice(XlaOp operand, XlaOp update, const std::vector<XlaOp>& start_indices) {
  std::vector<XlaOp> operands = {operand, update};
  operands.insert(operands.end(), start_indices.begin(), start_indices.end());
  OpCall call("DynamicUpdateSlice", operands);
  return Inferred(call, OpCode::kDynamicUpdateSlice, call.values(), {});
}

XlaOp ConcatInDim(XlaBuilder* builder, const std::vector<XlaOp>& operands, int64_t dimension) {
  OpCall call("ConcatInDim", builder, operands);
  return Inferred(call, OpCode::kConcatenate, call.values(), {{"dimension", internal::I64Attr(dimension)}});
}

XlaOp Pad(XlaOp operand, XlaOp padding_value, const PaddingConfig& padding_config) {
  OpCall call("Pad", {operand, padding_value});
  std::vector<int64_t> low, high, interior;
  for (const auto& d : padding_config.dimensions()) {
    low.push_back(d.edge_padding_low());
    high.push_back(d.edge_padding_high());
    interior.push_back(d.interior_padding());
  }
  return Inferred(call, OpCode::kPad, call.values(),
                  {{"edge_padding_low", internal::I64Array(low)},
                   {"edge_padding_high", internal::I64Array(high)},
                   {"interior_padding", internal::I64Array(interior)}});
}

XlaOp PadInDim(XlaOp operand, XlaOp padding_value, int64_t dimno, int64_t pad_lo, int64_t pad_hi) {
  OpCall call("PadInDim", {operand, padding_value});
  if (!call.ok()) return call.Invalid();
  auto type = ArrayOperand(call, 0);
  if (!type.ok()) return call.Fail(type.status());
  if (dimno < 0 || dimno >= type->rank()) {
    return call.Fail(InvalidArgumentError(fmt::format("dimno {} must be in [0, {})", dimno, type->rank())));
  }
  std::vector<int64_t> low(static_cast<size_t>(type->rank()), 0), high = low, interior = low;
  low[static_cast<size_t>(dimno)] = pad_lo;
  high[static_cast<size_t>(dimno)] = pad_hi;
  return Inferred(call, OpCode::kPad, call.values(),
                  {{"edge_padding_low", internal::I64Array(low)},
                   {"edge_padding_high", internal::I64Array(high)},
                   {"interior_padding", internal::I64Array(interior)}});
}

XlaOp Gather(XlaOp input, XlaOp start_indices, const GatherDimensionNumbers& dimension_numbers,
             const std::vector<int64_t>& slice_sizes, bool indices_are_sorted) {
  OpCall call("Gather", {input, start_indices});
  ir::GatherDimensionNumbers dnums;
  dnums.offset_dims = dimension_numbers.offset_dims();
  dnums.collapsed_slice_dims = dimension_numbers.collapsed_slice_dims();
  dnums.operand_batching_dims = dimension_numbers.operand_batching_dims();
  dnums.start_indices_batching_dims = dimension_numbers.start_indices_batching_dims();
  dnums.start_index_map = dimension_numbers.start_index_map();
  dnums.index_vector_dim = dimension_numbers.index_vector_dim();
  return Inferred(call, OpCode::kGather, call.values(),
                  {{"dimension_numbers", ir::Attribute(std::move(dnums))},
                   {"indices_are_sorted", internal::BoolAttr(indices_are_sorted)},
                   {"slice_sizes", internal::I64Array(slice_sizes)}});
}

XlaOp Tuple(XlaBuilder* builder, const std::vector<XlaOp>& elements) {
  OpCall call("Tuple", builder, elements);
  return Inferred(call, OpCode::kTuple, call.values(), {});
}

XlaOp GetTupleElement(XlaOp tuple_data, int64_t index) {
  OpCall call("GetTupleElement", {tuple_data});
  if (!call.ok()) return call.Invalid();
  Value* tuple = call.value(0);
  const ir::Type& type = tuple->type();
  if (!type.is_tuple()) {
    return call.Fail(InvalidArgumentError("the operand is not a tuple"));
  }
  if (index < 0 || index >= static_cast<int64_t>(type.tuple_elements().size())) {
    return call.Fail(InvalidArgumentError(
        fmt::format("index {} is out of range for a tuple of {} elements", index, type.tuple_elements().size())));
  }
  // An element of a tuple built here is the value it was built from (no op needed).
  if (tuple->defining_op() != nullptr && tuple->defining_op()->code() == OpCode::kTuple &&
      tuple->defining_op()->parent_block() == &call.block()) {
    return call.Finish(tuple->defining_op()->operand(static_cast<size_t>(index)));
  }
  return Inferred(call, OpCode::kGetTupleElement, call.values(),
                  {{"index", ir::Attribute::Int(index, ir::ElementType::kS32)}});
}

XlaOp GetDimensionSize(XlaOp operand, int64_t dimension) {
  OpCall call("GetDimensionSize", {operand});
  return Inferred(call, OpCode::kGetDimensionSize, call.values(), {{"dimension", internal::I64Attr(dimension)}});
}

}  // namespace vkhlo
