// `vkhlo-run --check`: runs the test functions of StableHLO test programs.
//
// In each module, the test functions are those that take no arguments and that nothing else
// calls (the spec tests' @main/@*_test, the JAX exports' @main). A test passes when it runs
// without error and none of its check.* ops (or custom_call @check.*) fails.
#pragma once

#include <string>
#include <vector>

#include "ir/module.h"
#include "vkhlo/status.h"

namespace vkhlo::tools {

struct TestOutcome {
  std::string name;     // the function's name
  bool passed = false;
  std::string message;  // why it failed: the error, or the first failed check with its location
};

// Rewrites `module` into what the reference interpreter runs: the chlo-decompose pass (the
// interpreter evaluates StableHLO only), verified afterwards.
Status PrepareForReference(ir::Module& module);

// Prepares `module` (PrepareForReference) and runs every test function with the reference
// interpreter. When preparing fails, every test function fails with that error.
std::vector<TestOutcome> RunTestFunctions(ir::Module& module);

}  // namespace vkhlo::tools
