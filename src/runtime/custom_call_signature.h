// A custom_call's operand and result types against its target's declared signature
// (include/vkhlo/custom_call.h CustomCallSignature).
#pragma once

#include <span>
#include <string>

#include "vkhlo/custom_call.h"
#include "vkhlo/runtime.h"
#include "vkhlo/status.h"

namespace vkhlo::runtime {

// Whether a call with `operands` and `results` matches `signature`; errors read
// "<location>: error: custom_call @<target> ...". Compile checks each op with it, and a plan's
// loader each host callback the plan names.
Status CheckCustomCallSignature(const CustomCallSignature& signature, std::span<const TensorType> operands,
                                std::span<const TensorType> results, const std::string& location,
                                const std::string& target);

}  // namespace vkhlo::runtime
