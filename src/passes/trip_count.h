// Counted loops: the trip count of a `stablehlo.while` known from the program alone, so that
// the runtime can record its iterations back to back without reading the condition back
// (execute.cc; docs/design.md "Host control flow and loops on the device").
//
// The pattern is what JAX makes of lax.scan and lax.fori_loop: an integer counter in the loop
// state that starts from a constant, is stepped by a constant (`add %i, %c`, `add %c, %i`,
// `subtract %i, %c`) and is compared, as the condition's only work, with a constant bound (a
// constant op, or a state element the body passes through unchanged whose initial value is a
// constant). Anything else (a condition that computes, a counter that could wrap before the
// loop ends, a loop that never ends) is not counted and keeps the host path.
#pragma once

#include <cstdint>
#include <optional>

#include "ir/module.h"

namespace vkhlo::passes {

// The number of times `while_op`'s body runs, when the pattern above decides it; else nullopt.
std::optional<int64_t> StaticTripCount(const ir::Operation& while_op);

}  // namespace vkhlo::passes
