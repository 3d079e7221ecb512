// The steps of a plan that stand for one runtime op each — FFT, collectives, process ops,
// custom calls — with what the executor needs of the op's attributes read now, at compile
// time (the plan holds no IR). Operands, results and the lists they name (reducers) are the
// caller's: plan_lowering.cc numbers values and lists.
#pragma once

#include <string>

#include "ir/module.h"
#include "plan/step.h"
#include "runtime/custom_call.h"
#include "vkhlo/status.h"

namespace vkhlo::runtime {

// stablehlo.fft: its type, precision, lengths and batch (codegen/library/fft_lowering.h).
StatusOr<plan::FftStep> FftStepOf(const ir::Operation& op);

// all_gather, all_reduce, reduce_scatter, collective_reduce, all_to_all, collective_permute,
// collective_broadcast: their kind, group strategy, replica groups as written (padding
// included), channel, dimensions, pairs, and the exact reduction per operand where the reducer
// is one (exact_reducer.h). `location` is "file:line:col".
StatusOr<plan::CollectiveStep> CollectiveStepOf(const ir::Operation& op, std::string location);

// replica_id, partition_id, send, recv, infeed, outfeed.
StatusOr<plan::ProcessStep> ProcessStepOf(const ir::Operation& op, std::string location);

// A custom_call's target as compiled: name, API version, backend config, side effect, and
// whether it is a host callback (a kernel target's dispatch is the caller's: it needs the
// plan's kernel and values).
plan::CustomCallStep CustomCallStepOf(const CompiledCustomCall& call);

}  // namespace vkhlo::runtime
