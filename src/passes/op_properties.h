// What passes may assume about an op: whether removing, merging or evaluating it at compile
// time preserves the program's meaning.
#pragma once

#include <string_view>

#include "ir/module.h"
#include "vkhlo/status.h"

namespace vkhlo::passes {

// The op only computes its results: no I/O, no communication, no test assertions, and what its
// regions run is pure too. Such an op can be removed when its results are unused (dce).
bool IsPure(const ir::Operation& op);

// Pure, and the same operands always give the same results (not `rng`, whose numbers are
// implementation-defined): two such ops with equal inputs can be merged (cse) and one with
// constant inputs can be evaluated at compile time (fold-constants).
bool IsPureAndDeterministic(const ir::Operation& op);

// Removes the pure ops of `region` (nested regions included) whose results nobody uses,
// repeatedly (removing one can leave its producers unused). Returns whether any was removed.
bool RemoveUnusedPureOps(ir::Region& region);

// INVALID_ARGUMENT "<file>:<line>:<col>: error: '<op>' <what>" (the verifier's form). The file
// is `source_name`, or when that is empty the source of the module the op is in.
Status OpError(const ir::Operation& op, std::string_view what, std::string_view source_name = {});

}  // namespace vkhlo::passes
