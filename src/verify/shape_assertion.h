// JAX's shape assertions: `stablehlo.custom_call @shape_assertion(%ok, %v0, %v1, ...)` with an
// `error_message` whose `{0}`, `{1}`, ... stand for the values v0, v1, ... (jax.export writes
// one per constraint on the symbolic dimensions, "Expected value >= 1 for dimension variable
// 'b'"). The interpreter evaluates them; shape refinement folds them (an assertion that holds
// goes, one that fails is the compile error). Both read them through these functions.
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "ir/module.h"

namespace vkhlo::verify {

bool IsShapeAssertion(const ir::Operation& op);

// The op's error_message with {i} replaced by values[i]: "Expected value >= 1 for dimension
// variable 'b' ... 'b' = 0 from specification ...".
std::string ShapeAssertionMessage(const ir::Operation& op, std::span<const int64_t> values);

}  // namespace vkhlo::verify
