// `vkhlo-run --check --device=vulkan` for test functions that start a process grid
// (interpreter.run_parallel) at their top level.
//
// The test function is run in stages on the host: each run of ordinary ops between grids
// becomes a function of its own (its inputs: the values earlier stages made; its results: the
// values later ops read), compiled and executed on the device; each interpreter.run_parallel
// runs its programs through RunProcessGrid (include/vkhlo/process_grid.h), one executable per
// distinct program, with the operands handed out as the interpreter does and one infeed queue
// shared by the grid (filled by the `infeed` functions, run on the device first); checks read
// the downloaded values. Results of tuple type are not supported here.
#pragma once

#include "ir/module.h"
#include "tools/vkhlo-run/check_runner.h"

namespace vkhlo::tools {

// Whether `function`'s body has an interpreter.run_parallel at its top level.
bool StartsProcessGrid(const ir::Function& function);

TestOutcome RunGridTestOnVulkan(const ir::Module& module, const ir::Function& function, const CheckOptions& options);

}  // namespace vkhlo::tools
