// The reference interpreter: a straightforward host evaluator of StableHLO, the oracle the GPU
// path is tested against (like XLA's HloEvaluator). Never used as a fallback in a Vulkan run.
//
//   auto result = interp::RunFunction(module, "main", {InterpValue::Tensor(x)});
//   result->outputs, result->check_failures
#pragma once

#include <memory>
#include <string_view>
#include <vector>

#include "interp/eval_context.h"
#include "interp/value.h"
#include "ir/module.h"
#include "vkhlo/status.h"

namespace vkhlo::interp {

struct RunOptions {
  HostQueues* queues = nullptr;  // infeed/outfeed; null: feeds are empty
};

struct RunResult {
  InterpValues outputs;
  std::vector<CheckFailure> check_failures;  // from check.* ops
  int64_t checks_passed = 0;
};

// Runs `function` of `module` on `arguments` as one process (replica 0, partition 0).
// Argument count and types must match the function's signature (INVALID_ARGUMENT otherwise).
// A module with a tensor larger than the host memory vkhlo may use (support/host_memory.h)
// is RESOURCE_EXHAUSTED, located, before anything runs.
StatusOr<RunResult> RunFunction(const ir::Module& module, std::string_view function,
                                InterpValues arguments, const RunOptions& options = {});

// Evaluates one op on operand values (for constant folding and differential tests). Ops that
// need a module (calls) or a process grid (collectives) are errors here. Splat operands of any
// size are fine where the op keeps them compact; other results must fit in host memory.
StatusOr<InterpValues> EvaluateOp(const ir::Operation& op, const InterpValues& operands);

}  // namespace vkhlo::interp
