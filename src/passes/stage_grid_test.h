// The compiler's step for a test function that starts process grids (interpreter.run_parallel at
// its top level: the spec's collective tests), as `vkhlo-run --check --device=vulkan` runs it:
// device programs added to the module and the schedule the host runs them by. The tool compiles
// the functions the schedule names and runs them in its order; it never rewrites the IR.
//
// The test function's top level is cut at each run_parallel and each check:
//   - each run of ordinary ops between them becomes a function of its own (a Stage): its
//     parameters, the tensors earlier steps made; its results, the tensors later steps read.
//     Tokens carry no data: a fresh after_all stands for one an earlier step made;
//   - each run_parallel (a Grid) names, per process, the function that process runs — a copy
//     whose top-level interpreter.print ops became trailing results, which the host prints after
//     the grid, process by process, as the interpreter does — and the functions whose results
//     fill the grid's infeed, run before it;
//   - each check (a Check) compares two tensors, or one with its constant, on the host, with the
//     interpreter's rules (vkhlo/checks.h).
// Tensors are numbered in the order the steps make them.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "ir/module.h"
#include "vkhlo/checks.h"
#include "vkhlo/status.h"

namespace vkhlo::passes {

struct GridTestSchedule {
  struct Stage {
    std::string function;
    std::vector<int64_t> inputs;   // its parameters, by tensor number
    std::vector<int64_t> outputs;  // the tensors its results are, in order
  };
  // A function run on the device whose last `prints` results are printed values.
  struct Program {
    std::string function;
    int64_t prints = 0;
  };
  struct Grid {
    std::string location;  // the run_parallel's "file:line:col"
    int64_t num_replicas = 1;
    int64_t num_partitions = 1;
    std::vector<Program> processes;  // replica-major
    std::vector<Program> infeeds;    // run first, in order: each one's other results are an infeed entry
    std::vector<std::vector<int64_t>> arguments;  // per process: its tensor arguments
    std::vector<std::vector<int64_t>> results;    // per process: the tensors its other results are
  };
  struct Check {
    CompiledCheck check;    // comparison, constant expectation (if any), location
    int64_t actual = -1;    // tensor numbers
    int64_t expected = -1;  // -1 when check.expected holds the expectation
  };
  std::vector<std::variant<Stage, Grid, Check>> steps;
  int64_t tensors = 0;  // how many tensors the steps number
};

// Whether `function`'s body has an interpreter.run_parallel at its top level.
bool StartsProcessGrid(const ir::Function& function);

// Adds the stage and program functions to `module` and returns the schedule of its test function
// `function`. A test op the schedule cannot hold is UNIMPLEMENTED, a run_parallel that does not
// fit its programs INVALID_ARGUMENT; both name the op and its location.
StatusOr<GridTestSchedule> StageGridTest(ir::Module& module, std::string_view function);

}  // namespace vkhlo::passes
