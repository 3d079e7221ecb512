// What profiles say about compiled kernels and ops (runtime/profiler.h KernelProfile), made by
// the compiler from the IR (profile_describe.cc); the runtime reads it from the plan.
#pragma once

#include <string>

#include "codegen/fusion.h"
#include "ir/module.h"
#include "runtime/profiler.h"

namespace vkhlo::runtime {

// "stablehlo.add at file:3:8" (the file alone when the op has no location).
std::string DescribeOp(const ir::Module& module, const ir::Operation& op);

// The class of a kernel built around `device_op` (nullptr: a loop fusion).
std::string KernelClass(const ir::Operation* device_op);

// `fusion`'s description; `loop_config` for loop kernels ("" for device kernels).
KernelProfile DescribeKernel(const ir::Module& module, const codegen::Fusion& fusion, std::string loop_config,
                             std::string detail);

}  // namespace vkhlo::runtime
