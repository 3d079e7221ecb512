// Index values read from tensors (start indices of dynamic_slice, gather, scatter,
// dynamic_update_slice) as GLSL ints, and integer shape operands known at compile time (the
// dynamic_* ops whose results are statically shaped).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "codegen/elemental/emitter.h"

namespace vkhlo::codegen {

// `value` (an element of any integer type, i1 included, raw or compute) clamped to [0, limit]
// as an int: the spec's clamping of start indices. 64-bit indices are clamped in 32-bit halves,
// so no shaderInt64 is needed.
StatusOr<std::string> ClampedIndex(ElementalEmitter& em, const ir::Operation& op, const Expr& value, int64_t limit);

// `value` (any integer type) as an int saturated to [-2^30, 2^30]: exact for every in-range
// position of a tensor (dimensions are below 2^30), and still out of range (on the same side)
// for any index that is out of range, so bounds checks stay exact without 64-bit arithmetic.
StatusOr<std::string> SaturatedIndex(ElementalEmitter& em, const ir::Operation& op, const Expr& value);

// The elements of operand `i` of `op` when it is a constant integer tensor (nullopt otherwise).
std::optional<std::vector<int64_t>> ConstantIntegers(const ir::Operation& op, size_t i);

// Checks that operand `i` of `op` is a constant whose values equal `expected` (the static
// counterpart of a dynamic op): a clear error otherwise.
Status CheckStaticOperand(ElementalEmitter& em, const ir::Operation& op, size_t i, const std::vector<int64_t>& expected,
                          const char* what);

}  // namespace vkhlo::codegen
