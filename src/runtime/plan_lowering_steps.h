// Rules over the steps of a lowered list (plan_lowering.cc): which dispatches may be kept
// across a loop's iterations, and where a list's steps split into command-buffer segments with
// which barriers.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "plan/plan.h"

namespace vkhlo::runtime {

// Whether dispatch `d` of `step` may be kept across a loop's iterations
// (plan::Dispatch::loop_invariant): it writes slots (the step's scratch) and no value, reads no
// slot, and no other dispatch of the step touches one of its slots before it or writes one after
// it (a matmul packing an operand into panels). What it writes then depends only on the values
// and constants it reads; the executor keeps it while those buffers stay the same.
bool LoopInvariant(const plan::DispatchStep& step, size_t d);

// `steps` (of one list, in order) as segments: a host step (plan::IsHostStep) stands alone, as
// Execution submits and waits there. Within a segment a device step gets kAfterComputeWrites
// when it reads or writes a buffer an earlier step of the segment wrote, or writes one an
// earlier step read (a reused slot, an input updated in place); a step running another list
// (a counted while, a call) is opaque: it and the step after it wait for everything before.
// `values` are the plan's (a value placed in a slot is its slot's buffer).
std::vector<plan::Segment> SegmentSteps(std::span<const plan::Value> values, std::vector<plan::Step> steps);

}  // namespace vkhlo::runtime
