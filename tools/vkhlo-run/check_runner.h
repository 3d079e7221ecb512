// `vkhlo-run --check`: runs the test functions of StableHLO test programs.
//
// In each module, the test functions are those that take no arguments and that nothing else
// calls (the spec tests' @main/@*_test, the JAX exports' @main). A test passes when it runs
// without error and none of its check.* ops (or custom_call @check.*) fails.
//
// Devices: the reference interpreter evaluates the checks as it meets them. On Vulkan the
// check ops are test ops, not device work: each test function is compiled with
// CompileOptions::checks, so the compiler makes the values its checks read extra results and
// outfeeds (passes/lower_checks.h, vkhlo/checks.h), the function runs on the device, and the host
// compares the downloaded values. A test function that starts a process grid
// (interpreter.run_parallel) runs in stages instead (grid_runner.h). Both paths compare with
// interp::CompareLiterals, so a check means the same on both.
#pragma once

#include <chrono>
#include <functional>
#include <string>
#include <vector>

#include <optional>

#include "ir/literal.h"
#include "ir/module.h"
#include "ir/walk.h"
#include "vkhlo/checks.h"
#include "vkhlo/mpi.h"
#include "vkhlo/process_grid.h"
#include "vkhlo/runtime.h"

namespace vkhlo::tools {

struct TestOutcome {
  std::string name;     // the function's name
  bool passed = false;
  std::string message;  // why it failed: the error, or the first failed check with its location
};

struct CheckOptions {
  enum class Device { kReference, kVulkan };
  Device device = Device::kReference;
  const Client* client = nullptr;  // kVulkan
  CompileOptions compile;          // kVulkan (the entry is set per test)
  ExecutionStats* totals = nullptr;  // kVulkan: stats of every run added here
  // kVulkan: called after each test function's compile with its outcome, wall time and stats
  // (vkhlo-bench --compile-times).
  std::function<void(const Status&, double wall_ms, const CompileStats&)> on_compile;
  bool compile_only = false;  // kVulkan: a test passes when it compiles; nothing runs
  // kVulkan: where the processes of an interpreter.run_parallel grid run (kShared: on `client`;
  // otherwise on clients CreateProcessClients makes, from the environment's ClientOptions).
  ProcessPlacement grid_placement = ProcessPlacement::kShared;
  // kVulkan: the longest a process of a grid waits at a collective or a recv.
  std::chrono::milliseconds grid_timeout = ProcessGridOptions{}.timeout;
  // kVulkan: when set, grids run over MPI, this rank running one process of each
  // (mpi_grid_runner.h); every rank runs the same tests and gets every process's results.
  MpiSession* mpi = nullptr;
  // kVulkan: each test function also runs through its plan — Executable::Serialize,
  // Client::LoadExecutable, run — whose results and outfeed must be the compiled executable's
  // byte for byte; the checks then read the loaded plan's. In a test that starts a process grid,
  // every stage and grid runs both ways (grid_runner.h).
  bool through_plan = false;
};

// A deep copy of a module: ir::CloneModule (ir/walk.h), found by argument-dependent lookup.

// The mismatch of `actual` against `check`'s expectation (its constant, or `computed`, the
// value the device computed for it), or nullopt when they match.
std::optional<std::string> CompareCheck(const CompiledCheck& check, const StatusOr<ir::Literal>& actual,
                                        const std::optional<ir::Literal>& computed);

// `compiled` serialized to a plan (Executable::Serialize; a shape-polymorphic one specialised
// first: test functions take no arguments) and loaded back on `client` (Client::LoadExecutable).
StatusOr<Executable> ThroughPlan(const Executable& compiled, const Client& client);

// Rewrites `module` into what the reference interpreter runs: the chlo-decompose pass (the
// interpreter evaluates StableHLO only), verified afterwards.
Status PrepareForReference(ir::Module& module);

// Runs every test function of `module`. On the reference device the module is prepared first
// (PrepareForReference; when that fails, every test function fails with its error); on Vulkan
// the compiler runs its own passes.
std::vector<TestOutcome> RunTestFunctions(ir::Module& module, const CheckOptions& options = {});

}  // namespace vkhlo::tools
