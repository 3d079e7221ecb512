// The walk that canonicalize, fold-constants and the decompositions share: every op of a module,
// in program order, is offered to a rewrite function; the function may build new ops (at the
// op's place, through the OpBuilder it is given) and return values that replace the op's results.
//
// Uses of replaced results are redirected as the walk goes on (in SSA every use comes later in
// program order than its definition, nested regions included), so a sweep is linear in the
// module's size. A replaced op is dropped; rewrites only replace ops without side effects. An
// op's regions are walked before the op itself is offered, so a rewrite sees simplified bodies.
#pragma once

#include <functional>
#include <optional>
#include <vector>

#include "ir/module.h"
#include "passes/op_builder.h"
#include "vkhlo/status.h"

namespace vkhlo::passes {

// nullopt: leave the op as it is. Otherwise one value per result of the op, of the result's
// exact type (a mismatch is reported as an internal error). An error (also one recorded in the
// builder) stops the walk and is returned.
using RewriteResult = StatusOr<std::optional<std::vector<ir::Value*>>>;
using RewriteFunction = std::function<RewriteResult(ir::Operation& op, OpBuilder& builder)>;

// One sweep over every function of `module`. Returns whether any op was replaced.
StatusOr<bool> RewriteOnce(ir::Module& module, const RewriteFunction& rewrite);

// Sweeps until nothing changes (at most `max_sweeps` times: the rewrites should make the
// program smaller or simpler each time, so the bound only guards against a rewrite that undoes
// another). Returns whether anything changed.
StatusOr<bool> RewriteToFixpoint(ir::Module& module, const RewriteFunction& rewrite,
                                 int max_sweeps = 64);

}  // namespace vkhlo::passes
