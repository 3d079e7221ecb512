// Constants, calls, tuples, tokens, and the test ops (check.*, interpreter.probe/print).
#include <fmt/format.h>

#include <cstdio>

#include "interp/checks.h"
#include "interp/op_registry.h"
#include "verify/shape_assertion.h"

namespace vkhlo::interp {
namespace {

using ir::Operation;

StatusOr<InterpValues> EvalConstant(EvalContext& context, const Operation& op, const InterpValues&) {
  const ir::Attribute* value = op.attribute("value");
  const ir::Literal* literal = value ? value->AsDenseElements() : nullptr;
  if (literal == nullptr) return context.OpError(op, "has no dense `value` attribute");
  return InterpValues{InterpValue::Tensor(*literal)};
}

StatusOr<InterpValues> EvalCall(EvalContext& context, const Operation& op, const InterpValues& operands) {
  const ir::Attribute* callee = op.attribute("callee");
  const ir::SymbolRef* symbol = callee ? callee->as<ir::SymbolRef>() : nullptr;
  if (symbol == nullptr) return context.OpError(op, "has no `callee` symbol");
  const ir::Function* function = context.module().FindFunction(symbol->name);
  if (function == nullptr) return context.OpError(op, "calls @" + symbol->name + ", which does not exist");
  return context.CallFunction(*function, operands);
}

StatusOr<InterpValues> EvalComposite(EvalContext& context, const Operation& op, const InterpValues& operands) {
  const ir::Attribute* decomposition = op.attribute("decomposition");
  const ir::SymbolRef* symbol = decomposition ? decomposition->as<ir::SymbolRef>() : nullptr;
  if (symbol == nullptr) return context.OpError(op, "has no `decomposition` symbol");
  const ir::Function* function = context.module().FindFunction(symbol->name);
  if (function == nullptr) return context.OpError(op, "decomposes to @" + symbol->name + ", which does not exist");
  return context.CallFunction(*function, operands);
}

StatusOr<InterpValues> EvalTuple(EvalContext&, const Operation&, const InterpValues& operands) {
  return InterpValues{InterpValue::Tuple(operands)};
}

StatusOr<InterpValues> EvalGetTupleElement(EvalContext& context, const Operation& op, const InterpValues& operands) {
  auto index = op.attribute("index") ? op.attribute("index")->AsInt() : std::nullopt;
  if (!index || !operands[0].is_tuple() || *index < 0 ||
      *index >= static_cast<int64_t>(operands[0].tuple().size())) {
    return context.OpError(op, "index out of range of its tuple operand");
  }
  return InterpValues{operands[0].tuple()[*index]};
}

StatusOr<InterpValues> EvalToken(EvalContext&, const Operation&, const InterpValues&) {
  return InterpValues{InterpValue::Token()};
}

StatusOr<InterpValues> EvalIdentity(EvalContext&, const Operation&, const InterpValues& operands) {
  return operands;
}

// --- checks ---

// Records the comparison as a passed or failed check; returns whether it matched.
StatusOr<bool> Check(EvalContext& context, const Operation& op, const InterpValue& actual,
                     const ir::Literal& expected, const CheckParams& params) {
  if (!actual.is_tensor()) return context.OpError(op, "checks a value that is not a tensor");
  if (auto mismatch = CompareLiterals(actual.literal(), expected, params)) {
    context.RecordCheckFailure(op, *mismatch);
    return false;
  }
  context.RecordCheckPass();
  return true;
}

// check.expect_* and their _const forms, as DescribeCheckOp reads them.
StatusOr<InterpValues> EvalExpect(EvalContext& context, const Operation& op, const InterpValues& operands) {
  const std::optional<CheckOp> check = DescribeCheckOp(op);
  if (!check) return context.OpError(op, "has no dense `value` attribute");
  if (check->expected_attribute != nullptr) {
    VKHLO_RETURN_IF_ERROR(Check(context, op, operands[0], *check->expected_attribute, check->params).status());
    return InterpValues{};
  }
  if (operands.size() < 2 || !operands[0].is_tensor() || !operands[1].is_tensor()) {
    return context.OpError(op, "expects a tensor");
  }
  VKHLO_ASSIGN_OR_RETURN(const bool match, Check(context, op, operands[check->actual_operand()],
                                                 operands[check->expected_operand()].literal(), check->params));
  if (!check->returns_match) return InterpValues(op.num_results());
  // @check.eq: the match as its tensor<i1> result.
  const ir::Type& type = op.result(0)->type();
  if (!type.is_tensor() || type.element_type() != ir::ElementType::kI1 || type.num_elements() != 1) {
    return context.OpError(op, "@check.eq returns a tensor<i1>");
  }
  VKHLO_ASSIGN_OR_RETURN(ir::Literal result, ir::Literal::Create(type));
  result.SetInt(0, match ? 1 : 0);
  return InterpValues{InterpValue::Tensor(std::move(result))};
}

std::string ProbeKey(const Operation& op) {
  const ir::Attribute* id = op.attribute("probe_id");
  const std::string* s = id ? id->AsString() : nullptr;
  int64_t iteration = op.attribute("iteration") ? op.attribute("iteration")->AsInt().value_or(0) : 0;
  return fmt::format("{}#{}", s ? *s : "", iteration);
}

StatusOr<InterpValues> EvalProbe(EvalContext& context, const Operation& op, const InterpValues& operands) {
  const ir::Attribute* id = op.attribute("probe_id");
  const std::string* s = id ? id->AsString() : nullptr;
  if (s == nullptr) return context.OpError(op, "has no `probe_id`");
  // Each evaluation of the same probe is a new iteration: "id#0", "id#1", ...
  int64_t iteration = 0;
  while (context.probes().count(fmt::format("{}#{}", *s, iteration))) ++iteration;
  context.probes()[fmt::format("{}#{}", *s, iteration)] = operands[0];
  return operands;
}

StatusOr<InterpValues> EvalExpectSerializedEq(EvalContext& context, const Operation& op, const InterpValues& operands) {
  auto it = context.probes().find(ProbeKey(op));
  if (it == context.probes().end()) {
    context.RecordCheckFailure(op, "no probe recorded under " + ProbeKey(op));
    return InterpValues{};
  }
  if (!it->second.is_tensor()) return context.OpError(op, "probe holds no tensor");
  VKHLO_RETURN_IF_ERROR(Check(context, op, operands[0], it->second.literal(), CheckParams{}).status());
  return InterpValues{};
}

StatusOr<InterpValues> EvalPrint(EvalContext&, const Operation&, const InterpValues& operands) {
  std::printf("%s\n", operands[0].ToString().c_str());
  return InterpValues{};
}

// JAX's @shape_assertion(ok, values...): fails with its error_message when `ok` is false.
StatusOr<InterpValues> EvalShapeAssertion(EvalContext& context, const Operation& op, const InterpValues& operands) {
  std::vector<int64_t> values;
  for (size_t i = 0; i < operands.size(); ++i) {
    const bool scalar = operands[i].is_tensor() && operands[i].literal().num_elements() == 1 &&
                        (ir::IsInteger(operands[i].literal().element_type()) || ir::IsBoolean(operands[i].literal().element_type()));
    if (!scalar) return context.OpError(op, "@shape_assertion takes integer or boolean scalars");
    values.push_back(operands[i].literal().GetInt(0));
  }
  if (values.empty()) return context.OpError(op, "@shape_assertion needs its predicate");
  if (values[0] != 0) return InterpValues(op.num_results());
  return context.OpError(op, "shape assertion failed: " +
                                 verify::ShapeAssertionMessage(op, std::span(values).subspan(1)));
}

// custom_call: the check targets are test ops; any other target is the embedder's (not the
// interpreter's) and is reported as such.
StatusOr<InterpValues> EvalCustomCall(EvalContext& context, const Operation& op, const InterpValues& operands) {
  const ir::Attribute* target = op.attribute("call_target_name");
  const std::string* name = target ? target->AsString() : nullptr;
  if (name == nullptr) return context.OpError(op, "has no `call_target_name`");
  if (verify::IsShapeAssertion(op)) return EvalShapeAssertion(context, op, operands);
  if (!DescribeCheckOp(op)) {
    if (*name == "check.eq") return context.OpError(op, "@check.eq takes two tensors (expected, actual) and returns a tensor<i1>");
    if (*name != "check.expect_eq" && *name != "check.expect_almost_eq" && *name != "check.expect_close") {
      return context.Unimplemented(op, "custom_call target '" + *name + "' is not registered");
    }
    return context.OpError(op, "@" + *name + " takes two tensors (actual, expected)");
  }
  if (operands.size() != 2 || !operands[0].is_tensor() || !operands[1].is_tensor()) {
    return context.OpError(op, "@" + *name + (*name == "check.eq" ? " takes two tensors (expected, actual)"
                                                                  : " takes two tensors (actual, expected)"));
  }
  return EvalExpect(context, op, operands);
}

}  // namespace

void RegisterStructuralOps(OpRegistry& r) {
  using ir::OpCode;
  r.Register(OpCode::kConstant, EvalConstant);
  r.Register(OpCode::kCall, EvalCall);
  r.Register(OpCode::kComposite, EvalComposite);
  r.Register(OpCode::kTuple, EvalTuple);
  r.Register(OpCode::kGetTupleElement, EvalGetTupleElement);
  r.Register(OpCode::kAfterAll, EvalToken);
  r.Register(OpCode::kCreateToken, EvalToken);
  r.Register(OpCode::kOptimizationBarrier, EvalIdentity);
  r.Register(OpCode::kCheckExpectEq, EvalExpect);
  r.Register(OpCode::kCheckExpectAlmostEq, EvalExpect);
  r.Register(OpCode::kCheckExpectClose, EvalExpect);
  r.Register(OpCode::kCheckExpectEqConst, EvalExpect);
  r.Register(OpCode::kCheckExpectAlmostEqConst, EvalExpect);
  r.Register(OpCode::kCheckExpectSerializedEq, EvalExpectSerializedEq);
  r.Register(OpCode::kInterpreterProbe, EvalProbe);
  r.Register(OpCode::kInterpreterPrint, EvalPrint);
  r.Register(OpCode::kCustomCall, EvalCustomCall);
}

}  // namespace vkhlo::interp
