// `vkhlo-run --check --device=vulkan` for test functions that start a process grid
// (interpreter.run_parallel) at their top level.
//
// The compiler stages the test function (passes/stage_grid_test.h): runs of ordinary ops become
// functions of their own, each grid names the program of each process (prints as trailing
// results) and its infeed functions, and checks compare tensors on the host. This runner runs
// that schedule: each stage compiled and executed on the device, each grid through
// RunProcessGrid (include/vkhlo/process_grid.h; over MPI with --grid=mpi), one executable per
// distinct program and client, with one infeed queue shared by the grid (filled by the `infeed`
// functions, run first); checks read the downloaded values. With CheckOptions::through_plan every
// stage and grid also runs as plans loaded back from their files, whose results must be the
// compiled executables' byte for byte (the checks then read theirs). Results of tuple type are not
// supported here.
#pragma once

#include "ir/module.h"
#include "passes/stage_grid_test.h"
#include "tools/vkhlo-run/check_runner.h"

namespace vkhlo::tools {

TestOutcome RunGridTestOnVulkan(const ir::Module& module, const ir::Function& function, const CheckOptions& options);

}  // namespace vkhlo::tools
