// The per-op rules of shape refinement (refiner.h): result types, static forms of dynamic ops,
// shape assertions and the folding of shape arithmetic.
#include <fmt/format.h>

#include "interp/interpreter.h"
#include "passes/constant_values.h"
#include "passes/op_builder.h"
#include "passes/op_properties.h"
#include "passes/shapes/refiner.h"
#include "verify/diagnostic.h"
#include "verify/op_context.h"
#include "verify/shape_assertion.h"
#include "verify/static_forms.h"
#include "verify/verifier.h"

namespace vkhlo::passes::shapes {
namespace {

using ir::OpCode;
using ir::Type;

// Calls nested deeper than this while specialising are refused (a stack's worth of recursion).
constexpr int kMaxDepth = 512;
// Shape arithmetic is folded when its results are this small (the interpreter evaluates it).
constexpr int64_t kMaxFoldedElements = 1024;
constexpr int64_t kMaxFoldedOperandElements = 1 << 16;

bool IsShapeElement(const Type& type) {
  return type.is_tensor() && !type.is_quantized() &&
         (ir::IsInteger(type.element_type()) || ir::IsBoolean(type.element_type()));
}

// " at file:line:col" (ir::FormatLocation), or "" where the op's position is unknown.
std::string Where(const ir::Module& module, const ir::Operation& op) {
  if (!op.location().known()) return "";
  return " at " + ir::FormatLocation(module.source_name(), op.location());
}

std::vector<Type> OperandTypes(const ir::Operation& op) {
  std::vector<Type> types;
  for (const ir::Value* v : op.operands()) types.push_back(v->type());
  return types;
}

}  // namespace

Status Refiner::RefineFunction(ir::Function& function) {
  if (function.body().empty()) return OkStatus();
  if (++depth_ > kMaxDepth) {
    --depth_;
    return ResourceExhaustedError(fmt::format("shape refinement: calls nested deeper than {} (at @{})", kMaxDepth,
                                              function.name()));
  }
  active_.insert(function.name());
  Status status = RefineBlock(function.body().front());
  active_.erase(function.name());
  --depth_;
  VKHLO_RETURN_IF_ERROR(status);
  const ir::Operation* ret = function.body().front().back();
  if (ret == nullptr || ret->code() != OpCode::kFuncReturn) return OkStatus();  // the verifier says so later
  ir::FunctionType type = function.type();
  if (ret->num_operands() != type.results.size()) return OkStatus();
  for (size_t i = 0; i < type.results.size(); ++i) {
    const Type& returned = ret->operand(i)->type();
    if (!verify::CompatibleExact(returned, type.results[i])) {
      return OpError(*ret, fmt::format("returns {} as result {} of @{}, whose signature says {}", returned.ToString(), i,
                                       function.name(), type.results[i].ToString()),
                     module_.source_name());
    }
    type.results[i] = returned;
  }
  function.set_type(std::move(type));
  return OkStatus();
}

Status Refiner::RefineBlock(ir::Block& block) {
  for (size_t i = 0; i < block.operations().size();) {
    ir::Operation& op = *block.operations()[i];
    for (size_t k = 0; k < op.num_operands(); ++k) {
      // Chains: a static form that then folded maps to its constant.
      for (auto it = replaced_.find(op.operand(k)); it != replaced_.end(); it = replaced_.find(it->second)) {
        op.set_operand(k, it->second);
      }
    }
    const size_t before = block.operations().size();
    VKHLO_RETURN_IF_ERROR(RefineOp(block, i));
    // A removed op (a shape assertion that holds) leaves the next one at `i`.
    if (block.operations().size() >= before) ++i;
  }
  return OkStatus();
}

Status Refiner::RefineOp(ir::Block& block, size_t index) {
  ir::Operation& op = *block.operations()[index];
  switch (op.code()) {
    case OpCode::kFuncReturn:
    case OpCode::kReturn:
      return OkStatus();  // the function's or region owner's types follow what they return
    case OpCode::kCall:
      VKHLO_RETURN_IF_ERROR(RefineCall(op));
      return FoldCallResults(block, index);
    case OpCode::kWhile:
      return RefineWhile(op);
    case OpCode::kIf:
    case OpCode::kCase:
      return RefineBranches(op);
    default:
      break;
  }
  if (verify::IsShapeAssertion(op)) return CheckShapeAssertion(block, index);
  if (verify::IsDynamicShapeOp(op.code())) return RewriteDynamicOp(block, index);
  for (size_t r = 0; r < op.num_regions(); ++r) {
    for (const auto& region_block : op.region(r).blocks()) VKHLO_RETURN_IF_ERROR(RefineBlock(*region_block));
  }
  VKHLO_RETURN_IF_ERROR(RefineResultTypes(op));
  return FoldIfConstant(block, index);
}

Status Refiner::RefineResultTypes(ir::Operation& op) {
  bool dynamic = false;
  for (size_t i = 0; i < op.num_results(); ++i) dynamic |= !op.result(i)->type().is_static();
  if (!dynamic) return OkStatus();  // static results are checked against the operands by the verifier
  const std::vector<Type> operands = OperandTypes(op);
  std::vector<const ir::Region*> regions;
  for (size_t r = 0; r < op.num_regions(); ++r) regions.push_back(&op.region(r));
  StatusOr<std::vector<Type>> inferred = verify::InferResultTypes(op.code(), operands, op.attributes(), regions);
  const std::string prefix = verify::LocationPrefix(module_.source_name(), op.location());
  if (!inferred.ok() && inferred.status().code() != StatusCode::kUnimplemented) {
    // A constraint the verifier deferred fails now, with the actual sizes on both sides.
    return Status(inferred.status().code(), prefix + std::string(inferred.status().message()));
  }
  std::vector<Type> results;
  if (inferred.ok() && inferred->size() == op.num_results()) {
    for (size_t i = 0; i < op.num_results(); ++i) {
      const Type& declared = op.result(i)->type();
      const Type& shape = (*inferred)[i];
      results.push_back(declared.is_tensor() && shape.is_tensor() ? declared.WithDims(shape.dims()) : shape);
    }
  } else if (op.info().kind == ir::OpKind::kElementwise && op.num_results() == 1 && !operands.empty() &&
             operands[0].is_tensor() &&
             (op.code() != OpCode::kBitcastConvert ||
              ir::BitWidth(operands[0].element_type()) == ir::BitWidth(op.result(0)->type().element_type()))) {
    results.push_back(op.result(0)->type().WithDims(operands[0].dims()));  // convert and the like
  } else {
    return Status(StatusCode::kInvalidArgument,
                  fmt::format("{}error: '{}' result type {} cannot be refined: its operands do not imply its shape",
                              prefix, op.name(), op.result(0)->type().ToString()));
  }
  for (size_t i = 0; i < results.size(); ++i) {
    const Type& declared = op.result(i)->type();
    if (!verify::CompatibleExact(results[i], declared.WithBounds({}))) {
      return Status(StatusCode::kInvalidArgument,
                    fmt::format("{}error: '{}' result {} is {} for these argument shapes, but its type is {}", prefix,
                                op.name(), i, results[i].ToString(), declared.ToString()));
    }
    op.result(i)->set_type(results[i]);
  }
  return OkStatus();
}

Status Refiner::RewriteDynamicOp(ir::Block& block, size_t index) {
  ir::Operation& op = *block.operations()[index];
  const std::span<const size_t> shape_operands = verify::ShapeOperandIndices(op.code());
  const bool dynamic_result = op.num_results() == 1 && !op.result(0)->type().is_static();
  std::vector<std::vector<int64_t>> values;
  for (size_t i : shape_operands) {
    const ir::Literal* literal = i < op.num_operands() ? ConstantLiteral(op.operand(i)) : nullptr;
    if (literal == nullptr || !IsShapeElement(literal->type()) || literal->num_elements() > kMaxFoldedOperandElements) {
      // A static result with a computed shape operand is what the compiler runs as it is.
      if (!dynamic_result) return OkStatus();
      return OpError(op, fmt::format("operand {} (a shape) does not fold to a constant for these argument shapes: it is "
                                     "{}",
                                     i, DescribeSource(op.operand(i))),
                     module_.source_name());
    }
    std::vector<int64_t> v(static_cast<size_t>(literal->num_elements()));
    for (int64_t k = 0; k < literal->num_elements(); ++k) v[static_cast<size_t>(k)] = literal->GetInt(k);
    values.push_back(std::move(v));
  }
  const std::vector<Type> operands = OperandTypes(op);
  VKHLO_ASSIGN_OR_RETURN(verify::StaticForm form,
                         verify::StaticFormOf(op.code(), op.attributes(), operands, values, op.result(0)->type(),
                                              verify::LocationPrefix(module_.source_name(), op.location())));
  std::vector<ir::Value*> kept;
  for (size_t i : form.operands) kept.push_back(op.operand(i));
  OpBuilder builder(block, index, op.location());
  ir::Operation* replacement = builder.CreateWithTypes(form.code, kept, {form.result}, form.attributes);
  VKHLO_RETURN_IF_ERROR(builder.status());
  Replace(block, index, replacement->results());
  return FoldIfConstant(block, index);
}

Status Refiner::CheckShapeAssertion(ir::Block& block, size_t index) {
  ir::Operation& op = *block.operations()[index];
  std::vector<int64_t> values;
  for (size_t i = 0; i < op.num_operands(); ++i) {
    const ir::Literal* literal = ConstantLiteral(op.operand(i));
    if (literal == nullptr || !IsShapeElement(literal->type()) || literal->num_elements() != 1) {
      return OpError(op, fmt::format("@shape_assertion operand {} does not fold to a constant for these argument "
                                     "shapes: it is {}", i, DescribeSource(op.operand(i))),
                     module_.source_name());
    }
    values.push_back(literal->GetInt(0));
  }
  if (values.empty()) return OpError(op, "@shape_assertion needs its predicate", module_.source_name());
  if (values[0] == 0) {
    return OpError(op, "shape assertion failed for these argument shapes: " +
                           verify::ShapeAssertionMessage(op, std::span(values).subspan(1)),
                   module_.source_name());
  }
  removed_.push_back(block.Remove(index));  // it holds, and has no results
  return OkStatus();
}

Status Refiner::FoldIfConstant(ir::Block& block, size_t index) {
  ir::Operation& op = *block.operations()[index];
  if (op.code() == OpCode::kConstant || op.num_results() == 0 || op.num_regions() != 0 || !IsPureAndDeterministic(op)) {
    return OkStatus();
  }
  int64_t elements = 0;
  for (size_t i = 0; i < op.num_results(); ++i) {
    const Type& t = op.result(i)->type();
    if (!t.is_static() || !IsShapeElement(t)) return OkStatus();
    elements += t.num_elements();
  }
  if (elements > kMaxFoldedElements) return OkStatus();
  OpBuilder builder(block, index, op.location());
  std::vector<ir::Value*> constants;
  if (op.code() == OpCode::kGetDimensionSize) {
    // Reads a size of its operand, static by now.
    const ir::Attribute* dimension = op.attribute("dimension");
    const std::optional<int64_t> d = dimension ? dimension->AsInt() : std::nullopt;
    const Type& operand = op.operand(0)->type();
    if (!d || *d < 0 || *d >= operand.rank() || operand.is_dynamic_dim(*d)) return OkStatus();
    VKHLO_ASSIGN_OR_RETURN(ir::Literal literal, ir::Literal::Create(op.result(0)->type()));
    literal.SetInt(0, operand.dim(*d));
    constants.push_back(builder.Constant(std::move(literal)));
  } else {
    if (op.num_operands() == 0 || op.code() == OpCode::kCall) return OkStatus();
    interp::InterpValues values;
    for (ir::Value* operand : op.operands()) {
      const ir::Literal* literal = ConstantLiteral(operand);
      if (literal == nullptr || literal->type().is_quantized() || literal->num_elements() > kMaxFoldedOperandElements) {
        return OkStatus();
      }
      values.push_back(interp::InterpValue::Tensor(*literal));
    }
    StatusOr<interp::InterpValues> results = interp::EvaluateOp(op, values);
    if (!results.ok() || results->size() != op.num_results()) return OkStatus();  // left to the device
    for (size_t i = 0; i < results->size(); ++i) {
      const interp::InterpValue& value = (*results)[i];
      if (!value.is_tensor() || value.literal().type().dims() != op.result(i)->type().dims()) return OkStatus();
      ir::Literal literal = value.literal();
      if (literal.type() != op.result(i)->type()) {
        auto retyped = ir::Literal::FromBytes(op.result(i)->type(),
                                              std::vector<uint8_t>(literal.raw().begin(), literal.raw().end()));
        if (!retyped.ok()) return OkStatus();
        literal = std::move(*retyped);
      }
      constants.push_back(builder.Constant(std::move(literal)));
    }
  }
  VKHLO_RETURN_IF_ERROR(builder.status());
  Replace(block, index + constants.size() - 1, constants);
  return OkStatus();
}

void Refiner::Replace(ir::Block& block, size_t index, const std::vector<ir::Value*>& replacement) {
  ir::Operation& original = *block.operations()[index + 1];
  for (size_t i = 0; i < original.num_results() && i < replacement.size(); ++i) {
    replaced_[original.result(i)] = replacement[i];
    replacement[i]->set_name_hint(original.result(i)->name_hint());
  }
  removed_.push_back(block.Remove(index + 1));
}

std::string Refiner::DescribeSource(const ir::Value* value) const {
  if (value == nullptr) return "missing";
  if (const ir::Operation* op = value->defining_op()) {
    return fmt::format("computed by '{}'{}, which does not fold", op->name(), Where(module_, *op));
  }
  const ir::Block* block = value->owner_block();
  const ir::Region* region = block ? block->parent_region() : nullptr;
  if (region != nullptr && region->parent_function() != nullptr) {
    return fmt::format("argument {} of @{} ({}), whose value is not known when compiling", value->index(),
                       region->parent_function()->name(), value->type().ToString());
  }
  if (const ir::Operation* parent = block ? block->parent_op() : nullptr) {
    return fmt::format("an argument of a region of '{}'{} (a loop-carried value)", parent->name(), Where(module_, *parent));
  }
  return "not a constant";
}

}  // namespace vkhlo::passes::shapes
