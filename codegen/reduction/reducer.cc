#include "codegen/reduction/reducer.h"

#include <fmt/format.h>

#include "codegen/elemental/op_emitters.h"

namespace vkhlo::codegen::reduction {

using ir::OpCode;

namespace {

bool IsCommutativeOp(OpCode code) {
  switch (code) {
    case OpCode::kAdd:
    case OpCode::kMultiply:
    case OpCode::kMaximum:
    case OpCode::kMinimum:
    case OpCode::kAnd:
    case OpCode::kOr:
    case OpCode::kXor:
      return true;
    default:
      return false;
  }
}

}  // namespace

StatusOr<Reducer> AnalyzeReducer(const ir::Operation& op) {
  auto error = [&](const std::string& what) {
    return InvalidArgumentError(fmt::format("'{}' {}", op.name(), what));
  };
  if (op.num_operands() < 2 || op.num_operands() % 2 != 0) return error("needs N inputs and N init values");
  Reducer r;
  r.op = &op;
  r.num_operands = op.num_operands() / 2;
  if (op.num_results() != r.num_operands) return error("needs one result per input");
  if (op.num_regions() != 1 || op.region(0).blocks().size() != 1) return error("needs a body region of one block");
  r.block = &op.region(0).front();
  if (r.block->num_arguments() != 2 * r.num_operands) return error("has a body whose arguments do not match its inputs");
  for (size_t k = 0; k < r.num_operands; ++k) {
    const ir::ElementType type = op.operand(k)->type().element_type();
    if (op.operand(r.num_operands + k)->type().element_type() != type ||
        op.result(k)->type().element_type() != type) {
      return error("needs inputs, init values and results of one element type each");
    }
    r.types.push_back(type);
  }
  const ir::Operation* terminator = r.block->back();
  if (terminator == nullptr || terminator->code() != OpCode::kReturn || terminator->num_operands() != r.num_operands) {
    return error("has a body that does not return one value per input");
  }
  // Recognized: ^bb(%a, %b): %c = op %a, %b (or %b, %a); return %c.
  if (r.num_operands == 1 && r.block->operations().size() == 2) {
    const ir::Operation& body_op = *r.block->operations().front();
    const ir::Value* a = r.block->argument(0);
    const ir::Value* b = r.block->argument(1);
    if (IsCommutativeOp(body_op.code()) && body_op.num_operands() == 2 && terminator->operand(0) == body_op.result(0) &&
        ((body_op.operand(0) == a && body_op.operand(1) == b) || (body_op.operand(0) == b && body_op.operand(1) == a))) {
      r.recognized = body_op.code();
    }
  }
  return r;
}

bool ReducerIsElemental(const ir::Operation& op) {
  for (size_t i = 0; i < op.num_regions(); ++i) {
    for (const auto& block : op.region(i).blocks()) {
      for (const auto& inner : block->operations()) {
        if (inner->code() == OpCode::kReturn) continue;
        if (!IsElementalOp(*inner)) return false;
      }
    }
  }
  return true;
}

Status RequireComputeTypes(ElementalEmitter& em, const Reducer& reducer) {
  for (size_t k = 0; k < reducer.num_operands; ++k) {
    const TypeFacts& facts = em.Facts(reducer.types[k]);
    const std::string_view feature = RequiredFeature(facts);
    if (TargetHas(em.target(), feature)) continue;
    // No location: the runtime prefixes the op's location to a device kernel's errors.
    return InvalidArgumentError(fmt::format("error: '{}' on {} needs {}, which {} lacks (profile {})", reducer.op->name(),
                                            reducer.op->operand(k)->type().ToString(), feature,
                                            em.target().device_name, em.target().profile));
  }
  return OkStatus();
}

Status EmitCombine(ElementalEmitter& em, const Reducer& reducer, const std::vector<Expr>& left,
                   const std::vector<Expr>& right, const std::vector<std::string>& into) {
  const size_t n = reducer.num_operands;
  const ir::Operation* terminator = reducer.block->back();
  em.PushScope();
  for (size_t k = 0; k < n; ++k) {
    em.Bind(reducer.block->argument(k), left[k]);
    em.Bind(reducer.block->argument(n + k), right[k]);
  }
  std::vector<std::string> results;
  Status status = OkStatus();
  for (size_t k = 0; k < n && status.ok(); ++k) {
    StatusOr<Expr> value = em.Emit(terminator->operand(k), Index::Scalar());
    if (value.ok()) value = em.Compute(*value);
    if (!value.ok()) {
      status = value.status();
      break;
    }
    if (value->type != reducer.types[k]) {
      status = em.OpError(*reducer.op, "has a body that returns values of other element types than its inputs");
      break;
    }
    // A copy: the result may be one of the bound accumulators, assigned before it is read.
    results.push_back(em.Var(em.Facts(reducer.types[k]).glsl, value->code));
  }
  for (size_t k = 0; k < 2 * n; ++k) em.Unbind(reducer.block->argument(k));
  em.PopScope();
  VKHLO_RETURN_IF_ERROR(status);
  if (!em.sticky_error().ok()) return em.sticky_error();
  for (size_t k = 0; k < n; ++k) em.Line(fmt::format("{} = {};", into[k], results[k]));
  return OkStatus();
}

std::vector<Expr> Named(const Reducer& reducer, const std::vector<std::string>& names) {
  std::vector<Expr> exprs;
  for (size_t k = 0; k < names.size(); ++k) exprs.push_back(Expr{names[k], reducer.types[k], false});
  return exprs;
}

uint32_t SharedBytes(const TypeFacts& f) {
  switch (f.kind) {
    case ComputeKind::kInt64:
    case ComputeKind::kUint64:
    case ComputeKind::kDouble:
    case ComputeKind::kComplex64:
      return 8;
    case ComputeKind::kComplex128:
      return 16;
    default:
      return 4;
  }
}

}  // namespace vkhlo::codegen::reduction
