// How verifier errors read, in one place:
//   "<file>:<line>:<col>: error: '<op name>' <what failed>: expected <...>, found <...>"
// The file is the module's source name and line:col the op's location; either is left out when
// unknown ("error: 'stablehlo.add' ..." for IR built in memory).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "ir/module.h"
#include "vkhlo/status.h"

namespace vkhlo::verify {

// "file:line:col: " (or a shorter form when parts are unknown; "" when nothing is known).
std::string LocationPrefix(std::string_view source_name, ir::Location location);
// The prefix for an op: its module's source name (when it is attached to one) and location.
std::string LocationPrefix(const ir::Operation& op);
// The module an op sits in (through its function), or nullptr when detached.
const ir::Module* ModuleOf(const ir::Operation& op);

// INVALID_ARGUMENT with the message above. `prefix` comes from LocationPrefix.
Status MakeError(std::string_view prefix, std::string_view op_name, std::string_view what,
                 std::string_view expected, std::string_view found);

// "tensor<2xf32>" / "(tensor<f32>, tensor<i32>)" for a list ("()" when empty).
std::string TypeListToString(std::span<const ir::Type> types);
// "[1, 2, 3]" ("[?, 4]": dynamic sizes as `?`).
std::string IntListToString(std::span<const int64_t> values);
// "tensor of floating-point type" style text is written by the callers; this names a value for
// SSA messages: "%name" or "a value with no name".
std::string ValueName(const ir::Value* value);

}  // namespace vkhlo::verify
