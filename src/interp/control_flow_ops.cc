// Control flow: while, if, case. (optimization_barrier and composite are structural_ops.cc's.)
//
// Regions run through EvalContext::EvaluateRegion, so they see the values defined above them.
#include <fmt/format.h>

#include "interp/op_registry.h"
#include "interp/shape_util.h"

namespace vkhlo::interp {
namespace {

using ir::Operation;

// Runs a branch region (no arguments) and checks it returns one value per op result.
StatusOr<InterpValues> RunBranch(EvalContext& context, const Operation& op, size_t region) {
  if (op.region(region).empty() || op.region(region).front().num_arguments() != 0) {
    return context.OpError(op, fmt::format("branch {} must be a region without arguments", region));
  }
  VKHLO_ASSIGN_OR_RETURN(InterpValues results, context.EvaluateRegion(op.region(region), {}));
  if (results.size() != op.num_results()) {
    return context.OpError(op, fmt::format("branch {} returns {} values, the op has {} results", region, results.size(),
                                           op.num_results()));
  }
  return results;
}

StatusOr<InterpValues> EvalWhile(EvalContext& context, const Operation& op, const InterpValues& operands) {
  if (op.num_regions() != 2) return context.OpError(op, "needs a cond and a body region");
  if (op.num_results() != operands.size()) {
    return context.OpError(op, fmt::format("has {} operands but {} results", operands.size(), op.num_results()));
  }
  const ir::Region& cond = op.region(0);
  const ir::Region& body = op.region(1);
  InterpValues state = operands;
  while (true) {
    VKHLO_ASSIGN_OR_RETURN(InterpValues c, context.EvaluateRegion(cond, state));
    if (c.size() != 1)
      return context.OpError(op, fmt::format("cond must return one tensor<i1>, returned {} values", c.size()));
    VKHLO_ASSIGN_OR_RETURN(bool go_on, ScalarPredicate(context, op, c[0], "the cond result"));
    if (!go_on) break;
    VKHLO_ASSIGN_OR_RETURN(InterpValues next, context.EvaluateRegion(body, state));
    if (next.size() != state.size()) {
      return context.OpError(op, fmt::format("body returns {} values, the loop carries {}", next.size(), state.size()));
    }
    state = std::move(next);
  }
  return state;
}

StatusOr<InterpValues> EvalIf(EvalContext& context, const Operation& op, const InterpValues& operands) {
  VKHLO_RETURN_IF_ERROR(CheckOperandCount(context, op, operands, 1));
  if (op.num_regions() != 2) return context.OpError(op, "needs a true and a false branch");
  VKHLO_ASSIGN_OR_RETURN(bool pred, ScalarPredicate(context, op, operands[0], "pred"));
  return RunBranch(context, op, pred ? 0 : 1);
}

// An index outside [0, N) selects the last branch (the spec's default branch).
StatusOr<InterpValues> EvalCase(EvalContext& context, const Operation& op, const InterpValues& operands) {
  VKHLO_RETURN_IF_ERROR(CheckOperandCount(context, op, operands, 1));
  if (op.num_regions() == 0) return context.OpError(op, "needs at least one branch");
  VKHLO_ASSIGN_OR_RETURN(const ir::Literal* index, TensorOperand(context, op, operands, 0));
  if (index->num_elements() != 1 || !ir::IsInteger(index->element_type())) {
    return context.OpError(op, "index must be a rank-0 integer tensor, found " + index->type().ToString());
  }
  const int64_t n = static_cast<int64_t>(op.num_regions());
  const int64_t i = IndexValue(*index, 0);
  return RunBranch(context, op, static_cast<size_t>(i >= 0 && i < n ? i : n - 1));
}

}  // namespace

void RegisterControlFlowOps(OpRegistry& r) {
  r.Register(ir::OpCode::kWhile, EvalWhile);
  r.Register(ir::OpCode::kIf, EvalIf);
  r.Register(ir::OpCode::kCase, EvalCase);
}

}  // namespace vkhlo::interp
