#include "interp/interpreter.h"

#include <fmt/format.h>

#include "interp/dynamic_shapes.h"
#include "interp/op_registry.h"
#include "ir/tensor_bytes.h"
#include "support/host_memory.h"

namespace vkhlo::interp {
namespace {

constexpr const char* kHostMemory = "host memory vkhlo may use (VKHLO_HOST_MEMORY_LIMIT, else the physical memory)";

}  // namespace

StatusOr<RunResult> RunFunction(const ir::Module& module, std::string_view name, InterpValues arguments,
                                const RunOptions& options) {
  const ir::Function* function = module.FindFunction(name);
  if (function == nullptr) return NotFoundError(fmt::format("no function @{} in the module", name));
  const auto& inputs = function->type().inputs;
  if (arguments.size() != inputs.size()) {
    return InvalidArgumentError(fmt::format("@{} takes {} arguments, given {}", name, inputs.size(), arguments.size()));
  }
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (!FitsType(arguments[i].type(), inputs[i])) {  // dynamic sizes take any size (within bounds)
      return InvalidArgumentError(fmt::format("argument {} of @{}: expected {}, found {}", i, name,
                                              inputs[i].ToString(), arguments[i].type().ToString()));
    }
  }
  // Tensors the host could never hold fail here, before anything runs, rather than looping over
  // a splat of 2^63 elements or allocating until the process is killed (ir/tensor_bytes.h).
  VKHLO_ASSIGN_OR_RETURN(const uint64_t limit, HostMemoryLimitBytes());
  VKHLO_RETURN_IF_ERROR(ir::CheckTensorsFit(module, limit, kHostMemory));
  HostQueues empty_queues;
  EvalContext context(module, ProcessId{}, nullptr, options.queues ? options.queues : &empty_queues);
  VKHLO_ASSIGN_OR_RETURN(InterpValues outputs, context.CallFunction(*function, std::move(arguments)));
  return RunResult{std::move(outputs), context.check_failures(), context.checks_passed()};
}

StatusOr<InterpValues> EvaluateOp(const ir::Operation& op, const InterpValues& operands) {
  if (op.code() == ir::OpCode::kCall || op.info().kind == ir::OpKind::kCollective) {
    return InvalidArgumentError(fmt::format("'{}' cannot be evaluated on its own", op.name()));
  }
  if (op.info().kind == ir::OpKind::kChlo) {
    return InvalidArgumentError(fmt::format(
        "'{}' cannot be evaluated: chlo ops must be decomposed first (run the chlo-decompose pass)", op.name()));
  }
  OpEvaluator evaluate = GetOpRegistry().Find(op.code());
  if (evaluate == nullptr) return UnimplementedError(fmt::format("'{}' has no evaluation function", op.name()));
  static const ir::Module kNoModule;
  HostQueues queues;
  EvalContext context(kNoModule, ProcessId{}, nullptr, &queues);
  return evaluate(context, op, operands);
}

}  // namespace vkhlo::interp
