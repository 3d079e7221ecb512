// Lowering a compiled executable to a plan (plan/plan.h, docs/plan_format.md "Wiring"): what
// the compile made — BlockPrograms with their fusion plans, compiled kernels, scratch slots,
// region programs, called functions, reducers, custom calls and constants — as data that holds
// everything an execution needs and nothing of the IR. The IR is still read here (constants'
// literals, the attributes of FFT, collectives and process ops, the entry's signature): this is
// the compiler's side of the split.
//
//   StatusOr<plan::Plan> plan = LowerToPlan(*executable.state());
//
// The plan's entry list is list `plan.entry`; while/if/case regions, called functions (one list
// each, however often called) and collective reducers are lists it names. Steps are grouped
// into segments where Execution submits today: a host step (a while whose trip count is
// unknown, if/case, collectives, process ops, host callbacks) stands alone.
#pragma once

#include "plan/plan.h"
#include "runtime/state.h"
#include "vkhlo/status.h"

namespace vkhlo::runtime {

// What the compile hands its own loaded plan besides the plan (loaded_plan.h LoadOptions).
struct PlanLoweringExtras {
  // Per plan constant: the buffer the compile uploaded it to. The plan's constants then keep no
  // bytes (the executable serializes by lowering again), and the header no source hash.
  std::vector<std::shared_ptr<BufferState>> constant_buffers;
};

// The plan of `exe`. UNIMPLEMENTED for a shape-polymorphic executable (a plan has static
// shapes; each specialisation would need a plan of its own). With `extras` (the compile's own
// plan, which Execute runs), fills them and leaves constants' bytes and the source hash out.
StatusOr<plan::Plan> LowerToPlan(const ExecutableState& exe, PlanLoweringExtras* extras = nullptr);

}  // namespace vkhlo::runtime
