#include "passes/op_builder.h"

#include <cmath>
#include <complex>

#include "ir/literal.h"
#include "verify/verifier.h"

namespace vkhlo::passes {

using ir::OpCode;
using ir::Value;

OpBuilder::OpBuilder(ir::Block& block, size_t position, ir::Location location)
    : block_(&block), position_(position), location_(location) {}

OpBuilder OpBuilder::AtEnd(ir::Block& block, ir::Location location) {
  return OpBuilder(block, block.operations().size(), location);
}

void OpBuilder::Fail(Status error) {
  if (status_.ok()) status_ = std::move(error);
}

ir::Operation* OpBuilder::Insert(std::unique_ptr<ir::Operation> op) {
  ir::Operation* raw = block_->InsertBefore(position_, std::move(op));
  ++position_;
  return raw;
}

Value* OpBuilder::Placeholder(const std::vector<Value*>& operands) {
  // A detached constant-shaped value of the first operand's type (or f32 scalar), never
  // inserted in the IR: it only keeps the caller's arithmetic going until status() is read.
  ir::Type type = !operands.empty() && operands[0] != nullptr ? operands[0]->type()
                                                              : ir::Type::Scalar(ir::ElementType::kF32);
  placeholders_.push_back(ir::Operation::Create(OpCode::kConstant, {}, {type}));
  return placeholders_.back()->result(0);
}

ir::Operation* OpBuilder::Create(OpCode code, std::vector<Value*> operands,
                                 std::vector<ir::NamedAttribute> attributes) {
  if (!status_.ok()) return Placeholder(operands)->defining_op();
  std::vector<ir::Type> operand_types;
  for (Value* operand : operands) operand_types.push_back(operand->type());
  auto types = verify::InferResultTypes(code, operand_types, attributes);
  if (!types.ok()) {
    Fail(Status(types.status().code(), "building '" + std::string(ir::GetOpInfo(code).name) +
                                           "': " + types.status().message()));
    return Placeholder(operands)->defining_op();
  }
  auto op = ir::Operation::Create(code, std::move(operands), *types, std::move(attributes),
                                  /*num_regions=*/0, location_);
  if (Status verified = verify::VerifyOperation(*op); !verified.ok()) {
    Fail(Status(verified.code(), "building '" + std::string(ir::GetOpInfo(code).name) +
                                     "': " + verified.message()));
    return Placeholder(op->operands())->defining_op();
  }
  return Insert(std::move(op));
}

ir::Operation* OpBuilder::CreateWithTypes(OpCode code, std::vector<Value*> operands,
                                          const std::vector<ir::Type>& result_types,
                                          std::vector<ir::NamedAttribute> attributes,
                                          int num_regions) {
  if (!status_.ok()) return Placeholder(operands)->defining_op();
  return Insert(ir::Operation::Create(code, std::move(operands), result_types,
                                      std::move(attributes), num_regions, location_));
}

Value* OpBuilder::Unary(OpCode code, Value* x) { return Create(code, {x})->result(0); }

Value* OpBuilder::Binary(OpCode code, Value* lhs, Value* rhs) {
  return Create(code, {lhs, rhs})->result(0);
}

Value* OpBuilder::Select(Value* pred, Value* on_true, Value* on_false) {
  return Create(OpCode::kSelect, {pred, on_true, on_false})->result(0);
}

std::string_view DefaultCompareType(ir::ElementType type) {
  if (ir::IsFloat(type) || ir::IsComplex(type)) return "FLOAT";
  if (ir::IsSignedInteger(type)) return "SIGNED";
  return "UNSIGNED";
}

Value* OpBuilder::Compare(std::string_view direction, Value* lhs, Value* rhs,
                          std::string_view compare_type) {
  if (compare_type.empty()) compare_type = DefaultCompareType(lhs->type().element_type());
  std::vector<ir::NamedAttribute> attributes = {
      {"comparison_direction",
       ir::EnumValue{"stablehlo", "comparison_direction", std::string(direction)}},
      {"compare_type", ir::EnumValue{"stablehlo", "comparison_type", std::string(compare_type)}}};
  return Create(OpCode::kCompare, {lhs, rhs}, std::move(attributes))->result(0);
}

Value* OpBuilder::Convert(Value* x, ir::ElementType to) {
  if (!status_.ok()) return Placeholder({x});
  return CreateWithTypes(OpCode::kConvert, {x}, {x->type().WithElementType(to)})->result(0);
}

Value* OpBuilder::BroadcastInDim(Value* x, const ir::Type& result_type,
                                 std::vector<int64_t> broadcast_dimensions) {
  if (!status_.ok()) return Placeholder({x});
  ir::Literal dims = *ir::Literal::Create(ir::Type::Tensor(
      ir::ElementType::kS64, {static_cast<int64_t>(broadcast_dimensions.size())}));
  for (size_t i = 0; i < broadcast_dimensions.size(); ++i) {
    dims.SetInt(static_cast<int64_t>(i), broadcast_dimensions[i]);
  }
  auto* op = CreateWithTypes(OpCode::kBroadcastInDim, {x}, {result_type},
                             {{"broadcast_dimensions", ir::Attribute::DenseArray{std::move(dims)}}});
  if (Status verified = verify::VerifyOperation(*op); !verified.ok()) Fail(verified);
  return op->result(0);
}

Value* OpBuilder::Reshape(Value* x, const ir::Type& result_type) {
  if (!status_.ok()) return Placeholder({x});
  auto* op = CreateWithTypes(OpCode::kReshape, {x}, {result_type});
  if (Status verified = verify::VerifyOperation(*op); !verified.ok()) Fail(verified);
  return op->result(0);
}

Value* OpBuilder::Constant(ir::Literal literal) {
  if (!status_.ok()) return Placeholder({});
  ir::Type type = literal.type();
  return CreateWithTypes(OpCode::kConstant, {}, {type},
                         {{"value", ir::Attribute::DenseElements{std::move(literal)}}})
      ->result(0);
}

Value* OpBuilder::Splat(const ir::Type& type, double value) {
  if (!status_.ok()) return Placeholder({});
  ir::Type scalar = ir::Type::Scalar(type.element_type());
  auto literal = ir::Literal::Create(scalar);
  if (!literal.ok()) {
    Fail(literal.status());
    return Placeholder({});
  }
  ir::ElementType element = type.element_type();
  if (ir::IsComplex(element)) {
    literal->SetComplex(0, {value, 0.0});
  } else if (ir::IsFloat(element)) {
    literal->SetFloat(0, value);
  } else {
    // Integers: values outside int64 saturate before wrapping (only used for exact integers).
    literal->SetInt(0, static_cast<int64_t>(value));
  }
  auto splat = ir::Literal::CreateSplat(type, literal->raw());
  if (!splat.ok()) {
    Fail(splat.status());
    return Placeholder({});
  }
  return Constant(std::move(*splat));
}

Value* OpBuilder::ScalarLike(Value* x, double value) { return Splat(x->type(), value); }

Value* OpBuilder::SplatBits(const ir::Type& type, uint64_t bits) {
  if (!status_.ok()) return Placeholder({});
  auto literal = ir::Literal::Create(ir::Type::Scalar(type.element_type()));
  if (!literal.ok()) {
    Fail(literal.status());
    return Placeholder({});
  }
  literal->SetBits(0, bits);
  auto splat = ir::Literal::CreateSplat(type, literal->raw());
  if (!splat.ok()) {
    Fail(splat.status());
    return Placeholder({});
  }
  return Constant(std::move(*splat));
}

namespace {
ir::Attribute I64Array(const std::vector<int64_t>& values) {
  ir::Literal literal = *ir::Literal::Create(
      ir::Type::Tensor(ir::ElementType::kS64, {static_cast<int64_t>(values.size())}));
  for (size_t i = 0; i < values.size(); ++i) literal.SetInt(static_cast<int64_t>(i), values[i]);
  return ir::Attribute::DenseArray{std::move(literal)};
}
}  // namespace

Value* OpBuilder::BitcastConvert(Value* x, ir::ElementType to) {
  if (!status_.ok()) return Placeholder({x});
  auto* op = CreateWithTypes(OpCode::kBitcastConvert, {x}, {x->type().WithElementType(to)});
  if (Status verified = verify::VerifyOperation(*op); !verified.ok()) Fail(verified);
  return op->result(0);
}

Value* OpBuilder::Iota(const ir::Type& type, int64_t dimension) {
  if (!status_.ok()) return Placeholder({});
  auto* op = CreateWithTypes(OpCode::kIota, {}, {type},
                             {{"iota_dimension", ir::Attribute::Int(dimension)}});
  if (Status verified = verify::VerifyOperation(*op); !verified.ok()) Fail(verified);
  return op->result(0);
}

Value* OpBuilder::Slice(Value* x, std::vector<int64_t> start, std::vector<int64_t> limit,
                        std::vector<int64_t> strides) {
  if (strides.empty()) strides.assign(start.size(), 1);
  return Create(OpCode::kSlice, {x},
                {{"start_indices", I64Array(start)},
                 {"limit_indices", I64Array(limit)},
                 {"strides", I64Array(strides)}})
      ->result(0);
}

Value* OpBuilder::DynamicSlice(Value* x, std::vector<Value*> start_indices,
                               std::vector<int64_t> sizes) {
  std::vector<Value*> operands = {x};
  operands.insert(operands.end(), start_indices.begin(), start_indices.end());
  return Create(OpCode::kDynamicSlice, std::move(operands), {{"slice_sizes", I64Array(sizes)}})
      ->result(0);
}

Value* OpBuilder::DynamicUpdateSlice(Value* x, Value* update, std::vector<Value*> start_indices) {
  std::vector<Value*> operands = {x, update};
  operands.insert(operands.end(), start_indices.begin(), start_indices.end());
  return Create(OpCode::kDynamicUpdateSlice, std::move(operands))->result(0);
}

ir::Block* OpBuilder::AddBlock(ir::Operation* op, size_t region,
                               const std::vector<ir::Type>& argument_types) {
  ir::Block& block = op->region(region).AddBlock();
  for (const ir::Type& type : argument_types) block.AddArgument(type);
  return &block;
}

void OpBuilder::Return(std::vector<Value*> values) {
  if (!status_.ok()) return;
  CreateWithTypes(OpCode::kReturn, std::move(values), {});
}

}  // namespace vkhlo::passes
