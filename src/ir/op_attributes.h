// Reading an op's scalar attributes the lenient way StableHLO text writes them, shared by the
// interpreter, the runtime and codegen: `x = 3`, `x = dense<3> : tensor<i64>`, `x = true`, a
// unit attribute `x` (present = true).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "ir/module.h"

namespace vkhlo::ir {

// Integer attribute `name` (an integer or a one-element dense value); nullopt when absent.
std::optional<int64_t> AttrInt(const Operation& op, std::string_view name);
// Bool attribute: `name = true/false`, a unit attribute, an integer or one-element dense value
// (non-zero = true); `fallback` when absent or of another kind.
bool AttrBool(const Operation& op, std::string_view name, bool fallback = false);
// Integer-array attribute `name` (`array<i64: ...>` or a dense integer value); empty when
// absent or of another kind.
std::vector<int64_t> AttrInts(const Operation& op, std::string_view name);

}  // namespace vkhlo::ir
