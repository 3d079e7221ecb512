// A plan's header as text, for tools that show what a .vkx file is and needs without loading
// it (a vkhlo-info for plans, `vkhlo-run x.vkx` errors):
//
//   format 1.0, written by vkhlo 0.1.0
//   source sha256 0107...
//   entry @main(tensor<4xf32>, !stablehlo.token) -> (tuple<tuple<tensor<4xf32>, tensor<i32>>, tensor<2x2xf32>>, !stablehlo.token)
//   compiled for profile 'mobile', Vulkan 1.1
//   features: shaderInt64, storageBuffer16BitAccess
//   limits used: maxStorageBufferRange 1048576, maxComputeSharedMemorySize 8192, ...
#pragma once

#include <string>

#include "plan/header.h"

namespace vkhlo::plan {

// "tensor<2x?xf32>" (a negative size as ?), "!stablehlo.token", "tuple<...>".
std::string FormatEntryType(const EntryType& type);

// Several lines, each ending in a newline (see above).
std::string DescribeHeader(const PlanHeader& header);

}  // namespace vkhlo::plan
