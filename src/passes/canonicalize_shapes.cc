// Shape ops that do nothing or compose:
//   transpose(transpose(x, p), q) -> transpose(x, p o q); transpose(x, identity) -> x
//   reshape(reshape(x)) -> reshape(x); reshape(x) : type(x) -> x
//   broadcast_in_dim(broadcast_in_dim(x, a), b) -> broadcast_in_dim(x, b o a)
//   broadcast_in_dim(x, identity) : type(x) -> x; broadcast(x, sizes) -> broadcast_in_dim
//   broadcast_in_dim / broadcast / reshape / transpose / reverse / slice of a splat constant
//     -> a splat constant of the result type (any size: a splat costs one element)
//   slice(x) : type(x) from 0 -> x; pad(x) with no padding -> x
//   concatenate(x) -> x; empty operands of concatenate are dropped
//   reverse(x) over dimensions of size <= 1 -> x; reverse(reverse(x, d), d) -> x
//   get_tuple_element(tuple(a0, a1, ...), i) -> ai
//   iota along a dimension of size 1 -> a zero constant; get_dimension_size -> a constant
//   dot -> dot_general (one matmul op for the later stages)
//   dynamic_conv with a constant padding -> convolution with that padding (the shapes are static
//     once verified; only the padding operand was dynamic)
#include <cstring>
#include <numeric>

#include "passes/canonicalize_rules.h"
#include "ir/op_attributes.h"
#include "passes/constant_values.h"

namespace vkhlo::passes::canonicalize {
namespace {

using ir::OpCode;
using ir::Value;

bool IsIdentity(const std::vector<int64_t>& permutation) {
  for (size_t i = 0; i < permutation.size(); ++i) {
    if (permutation[i] != static_cast<int64_t>(i)) return false;
  }
  return true;
}

bool AllZero(const std::vector<int64_t>& values) {
  return std::all_of(values.begin(), values.end(), [](int64_t v) { return v == 0; });
}

ir::Operation* DefiningOp(const Value* value, OpCode code) {
  ir::Operation* op = value->defining_op();
  return op != nullptr && op->code() == code ? op : nullptr;
}

// The op's only result re-created from the same operand with other attributes.
Value* Recreate(OpBuilder& builder, const ir::Operation& op, OpCode code, Value* operand,
                std::vector<ir::NamedAttribute> attributes) {
  return builder.CreateWithTypes(code, {operand}, {op.result(0)->type()}, std::move(attributes))
      ->result(0);
}

// Ops that only rearrange (or repeat) their operand's elements: applied to a splat they give a
// splat of their result type.
bool RearrangesElements(OpCode code) {
  switch (code) {
    case OpCode::kBroadcastInDim:
    case OpCode::kBroadcast:
    case OpCode::kReshape:
    case OpCode::kTranspose:
    case OpCode::kReverse:
    case OpCode::kSlice:
      return true;
    default:
      return false;
  }
}

RewriteResult SimplifyTranspose(ir::Operation& op, OpBuilder& builder) {
  const std::vector<int64_t> outer = ir::AttrInts(op, "permutation");
  Value* x = op.operand(0);
  if (IsIdentity(outer) && x->type() == op.result(0)->type()) return Replace(x);
  ir::Operation* inner = DefiningOp(x, OpCode::kTranspose);
  if (inner == nullptr) return Keep();
  // result dim i = mid dim outer[i] = source dim inner[outer[i]].
  const std::vector<int64_t> first = ir::AttrInts(*inner, "permutation");
  std::vector<int64_t> composed(outer.size());
  for (size_t i = 0; i < outer.size(); ++i) {
    if (outer[i] < 0 || static_cast<size_t>(outer[i]) >= first.size()) return Keep();
    composed[i] = first[static_cast<size_t>(outer[i])];
  }
  Value* source = inner->operand(0);
  if (IsIdentity(composed) && source->type() == op.result(0)->type()) return Replace(source);
  return Replace(Recreate(builder, op, OpCode::kTranspose, source,
                          {{"permutation", ir::Attribute::I64Array(composed)}}));
}

RewriteResult SimplifyReshape(ir::Operation& op, OpBuilder& builder) {
  Value* x = op.operand(0);
  if (x->type() == op.result(0)->type()) return Replace(x);
  ir::Operation* inner = DefiningOp(x, OpCode::kReshape);
  if (inner == nullptr) return Keep();
  Value* source = inner->operand(0);
  if (source->type() == op.result(0)->type()) return Replace(source);
  return Replace(Recreate(builder, op, OpCode::kReshape, source, {}));
}

RewriteResult SimplifyBroadcastInDim(ir::Operation& op, OpBuilder& builder) {
  const std::vector<int64_t> outer = ir::AttrInts(op, "broadcast_dimensions");
  Value* x = op.operand(0);
  if (IsIdentity(outer) && x->type() == op.result(0)->type()) return Replace(x);
  ir::Operation* inner = DefiningOp(x, OpCode::kBroadcastInDim);
  if (inner == nullptr) return Keep();
  // source dim i -> mid dim first[i] -> result dim outer[first[i]].
  const std::vector<int64_t> first = ir::AttrInts(*inner, "broadcast_dimensions");
  std::vector<int64_t> composed(first.size());
  for (size_t i = 0; i < first.size(); ++i) {
    if (first[i] < 0 || static_cast<size_t>(first[i]) >= outer.size()) return Keep();
    composed[i] = outer[static_cast<size_t>(first[i])];
  }
  return Replace(Recreate(builder, op, OpCode::kBroadcastInDim, inner->operand(0),
                          {{"broadcast_dimensions", ir::Attribute::I64Array(composed)}}));
}

RewriteResult SimplifyBroadcast(ir::Operation& op, OpBuilder& builder) {
  const int64_t rank = op.operand(0)->type().rank();
  const int64_t added = op.result(0)->type().rank() - rank;
  std::vector<int64_t> dims(static_cast<size_t>(rank));
  std::iota(dims.begin(), dims.end(), added);
  return Replace(Recreate(builder, op, OpCode::kBroadcastInDim, op.operand(0),
                          {{"broadcast_dimensions", ir::Attribute::I64Array(dims)}}));
}

RewriteResult SimplifySlice(ir::Operation& op) {
  Value* x = op.operand(0);
  if (x->type() == op.result(0)->type() && AllZero(ir::AttrInts(op, "start_indices"))) return Replace(x);
  return Keep();
}

RewriteResult SimplifyPad(ir::Operation& op) {
  Value* x = op.operand(0);
  if (x->type() == op.result(0)->type() && AllZero(ir::AttrInts(op, "edge_padding_low")) &&
      AllZero(ir::AttrInts(op, "edge_padding_high")) && AllZero(ir::AttrInts(op, "interior_padding"))) {
    return Replace(x);
  }
  return Keep();
}

RewriteResult SimplifyConcatenate(ir::Operation& op, OpBuilder& builder) {
  if (op.num_operands() == 1 && op.operand(0)->type() == op.result(0)->type()) {
    return Replace(op.operand(0));
  }
  std::vector<Value*> kept;
  for (Value* operand : op.operands()) {
    if (operand->type().num_elements() != 0) kept.push_back(operand);
  }
  if (kept.size() == op.num_operands() || kept.empty()) return Keep();
  if (kept.size() == 1 && kept[0]->type() == op.result(0)->type()) return Replace(kept[0]);
  return Replace(builder.CreateWithTypes(OpCode::kConcatenate, kept, {op.result(0)->type()}, op.attributes())
                     ->result(0));
}

RewriteResult SimplifyReverse(ir::Operation& op) {
  Value* x = op.operand(0);
  const std::vector<int64_t> dims = ir::AttrInts(op, "dimensions");
  bool all_trivial = true;
  for (int64_t d : dims) {
    if (d < 0 || d >= x->type().rank() || x->type().dim(d) > 1) all_trivial = false;
  }
  if (all_trivial && x->type() == op.result(0)->type()) return Replace(x);
  if (ir::Operation* inner = DefiningOp(x, OpCode::kReverse)) {
    std::vector<int64_t> a = dims, b = ir::AttrInts(*inner, "dimensions");
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    if (a == b && inner->operand(0)->type() == op.result(0)->type()) return Replace(inner->operand(0));
  }
  return Keep();
}

RewriteResult SimplifyGetTupleElement(ir::Operation& op) {
  ir::Operation* tuple = DefiningOp(op.operand(0), OpCode::kTuple);
  const ir::Attribute* index_attribute = op.attribute("index");
  const std::optional<int64_t> index = index_attribute ? index_attribute->AsInt() : std::nullopt;
  if (tuple == nullptr || !index || *index < 0 || static_cast<size_t>(*index) >= tuple->num_operands()) {
    return Keep();
  }
  Value* element = tuple->operand(static_cast<size_t>(*index));
  if (element->type() != op.result(0)->type()) return Keep();
  return Replace(element);
}

RewriteResult SimplifyIota(ir::Operation& op, OpBuilder& builder) {
  const ir::Type& type = op.result(0)->type();
  const ir::Attribute* dimension_attribute = op.attribute("iota_dimension");
  const std::optional<int64_t> dimension = dimension_attribute ? dimension_attribute->AsInt() : std::nullopt;
  if (type.is_quantized() || !dimension || *dimension < 0 || *dimension >= type.rank() ||
      type.dim(*dimension) != 1) {
    return Keep();
  }
  return Replace(builder.Splat(type, 0.0));
}

RewriteResult SimplifyGetDimensionSize(ir::Operation& op, OpBuilder& builder) {
  const ir::Attribute* dimension_attribute = op.attribute("dimension");
  const std::optional<int64_t> dimension = dimension_attribute ? dimension_attribute->AsInt() : std::nullopt;
  const ir::Type& operand = op.operand(0)->type();
  const ir::Type& type = op.result(0)->type();
  if (!dimension || *dimension < 0 || *dimension >= operand.rank() || type.is_quantized() ||
      operand.is_dynamic_dim(*dimension)) {  // known only after refinement (passes/shapes)
    return Keep();
  }
  return Replace(builder.Splat(type, static_cast<double>(operand.dim(*dimension))));
}

RewriteResult DotToDotGeneral(ir::Operation& op, OpBuilder& builder) {
  const int64_t lhs_rank = op.operand(0)->type().rank();
  if (lhs_rank < 1 || lhs_rank > 2) return Keep();
  ir::DotDimensionNumbers numbers;
  numbers.lhs_contracting_dimensions = {lhs_rank - 1};
  numbers.rhs_contracting_dimensions = {0};
  std::vector<ir::NamedAttribute> attributes = op.attributes();
  attributes.emplace_back("dot_dimension_numbers", ir::Attribute(numbers));
  return Replace(builder
                     .CreateWithTypes(OpCode::kDotGeneral, {op.operand(0), op.operand(1)},
                                      {op.result(0)->type()}, std::move(attributes))
                     ->result(0));
}

RewriteResult DynamicConvToConvolution(ir::Operation& op, OpBuilder& builder) {
  const ir::Literal* padding = ConstantLiteral(op.operand(2));
  if (padding == nullptr || padding->type().rank() != 2 || padding->type().dims()[1] != 2 ||
      !ir::IsInteger(padding->element_type())) {
    return Keep();
  }
  std::vector<uint8_t> bytes(static_cast<size_t>(padding->num_elements()) * 8);
  for (int64_t i = 0; i < padding->num_elements(); ++i) {
    const int64_t v = padding->GetInt(i);
    std::memcpy(bytes.data() + i * 8, &v, 8);
  }
  auto literal = ir::Literal::FromBytes(ir::Type::Tensor(ir::ElementType::kS64, padding->type().dims()), std::move(bytes));
  if (!literal.ok()) return Keep();
  std::vector<ir::NamedAttribute> attributes = op.attributes();
  attributes.emplace_back("padding", ir::Attribute::Dense(std::move(*literal)));
  return Replace(builder
                     .CreateWithTypes(OpCode::kConvolution, {op.operand(0), op.operand(1)}, {op.result(0)->type()},
                                      std::move(attributes))
                     ->result(0));
}

}  // namespace

RewriteResult SimplifyShapes(ir::Operation& op, OpBuilder& builder) {
  if (op.num_results() == 1 && RearrangesElements(op.code()) && !op.result(0)->type().is_quantized()) {
    if (const ir::Literal* splat = SplatConstant(op.operand(0))) {
      auto literal = SplatOf(*splat, 0, op.result(0)->type());
      if (literal.ok()) return Replace(builder.Constant(std::move(*literal)));
    }
  }
  switch (op.code()) {
    case OpCode::kTranspose: return SimplifyTranspose(op, builder);
    case OpCode::kReshape: return SimplifyReshape(op, builder);
    case OpCode::kBroadcastInDim: return SimplifyBroadcastInDim(op, builder);
    case OpCode::kBroadcast: return SimplifyBroadcast(op, builder);
    case OpCode::kSlice: return SimplifySlice(op);
    case OpCode::kPad: return SimplifyPad(op);
    case OpCode::kConcatenate: return SimplifyConcatenate(op, builder);
    case OpCode::kReverse: return SimplifyReverse(op);
    case OpCode::kGetTupleElement: return SimplifyGetTupleElement(op);
    case OpCode::kIota: return SimplifyIota(op, builder);
    case OpCode::kGetDimensionSize: return SimplifyGetDimensionSize(op, builder);
    case OpCode::kDot: return DotToDotGeneral(op, builder);
    case OpCode::kDynamicConv: return DynamicConvToConvolution(op, builder);
    default: return Keep();
  }
}

}  // namespace vkhlo::passes::canonicalize
