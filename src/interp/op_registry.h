// Evaluation functions by OpCode. Each op group registers its ops in one function; the registry
// calls them all once. An op without an evaluation function is an UNIMPLEMENTED error naming it.
#pragma once

#include <array>

#include "interp/eval_context.h"
#include "ir/op_table.h"

namespace vkhlo::interp {

using OpEvaluator = StatusOr<InterpValues> (*)(EvalContext& context, const ir::Operation& op,
                                               const InterpValues& operands);

class OpRegistry {
 public:
  void Register(ir::OpCode code, OpEvaluator evaluator);
  OpEvaluator Find(ir::OpCode code) const;

 private:
  std::array<OpEvaluator, 512> evaluators_{};
};

// The registry with every group's ops (built once).
const OpRegistry& GetOpRegistry();

// One function per op group (each in its own file).
void RegisterStructuralOps(OpRegistry& registry);    // constant, call, return, tuples, checks
void RegisterElementwiseOps(OpRegistry& registry);   // elementwise.cc and friends
void RegisterDataMovementOps(OpRegistry& registry);  // reshape, slice, gather, scatter, sort, ...
void RegisterReductionOps(OpRegistry& registry);     // reduce, reduce_window, select_and_scatter
void RegisterControlFlowOps(OpRegistry& registry);   // while, if, case, map, optimization_barrier
void RegisterLibraryOps(OpRegistry& registry);       // dot_general, convolution, fft, linalg, batch_norm
void RegisterRandomOps(OpRegistry& registry);        // rng, rng_bit_generator
void RegisterCollectiveOps(OpRegistry& registry);    // process grid, collectives, send/recv, feeds

}  // namespace vkhlo::interp
