// What an op's evaluation function can reach: its process (replica/partition, the process
// grid for collectives, feeds), the module (for calls), region evaluation, check results, and
// error messages in the project's diagnostic format.
//
// An op group (elementwise.cc, data_movement.cc, ...) implements evaluation functions
//   StatusOr<InterpValues> Eval(EvalContext& context, const ir::Operation& op, const InterpValues& operands)
// and registers them by OpCode in its Register...Ops function (op_registry.h).
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "interp/value.h"
#include "ir/module.h"
#include "vkhlo/status.h"

namespace vkhlo::interp {

class ProcessGrid;  // collectives and channels (process_grid.h)

struct ProcessId {
  int64_t replica_id = 0;
  int64_t partition_id = 0;
};

// One failed check.* op: where, and what differed.
struct CheckFailure {
  ir::Location location;
  std::string message;
};

// Host ends of the streaming interfaces (infeed reads from, outfeed writes to).
struct HostQueues {
  std::mutex mutex;
  std::deque<InterpValues> infeed;
  std::vector<InterpValues> outfeed;
};

class EvalContext {
 public:
  EvalContext(const ir::Module& module, ProcessId process, ProcessGrid* grid, HostQueues* queues);

  const ir::Module& module() const { return module_; }
  ProcessId process() const { return process_; }
  ProcessGrid* grid() const { return grid_; }  // nullptr outside interpreter.run_parallel
  HostQueues* queues() const { return queues_; }

  // Runs a function / a region's entry block with `arguments`; returns what its terminator
  // (func.return / stablehlo.return) returns.
  StatusOr<InterpValues> CallFunction(const ir::Function& function, InterpValues arguments);
  StatusOr<InterpValues> EvaluateRegion(const ir::Region& region, const InterpValues& arguments);

  // Check results of check.* ops evaluated so far in this context.
  void RecordCheckFailure(const ir::Operation& op, std::string message);
  void RecordCheckPass() { ++checks_passed_; }
  const std::vector<CheckFailure>& check_failures() const { return check_failures_; }
  int64_t checks_passed() const { return checks_passed_; }

  // Probes (interpreter.probe): values kept by id for check.expect_serialized_eq.
  std::map<std::string, InterpValue>& probes() { return probes_; }

  // "<file>:<line>:<col>: error: '<op>' <message>" (INVALID_ARGUMENT) for bad input at run time,
  // e.g. a case index out of range in a way the spec makes an error.
  Status OpError(const ir::Operation& op, std::string message) const;
  Status Unimplemented(const ir::Operation& op, std::string what) const;

 private:
  struct Frame;
  StatusOr<InterpValues> EvaluateBlock(const ir::Block& block, const InterpValues& arguments, Frame* parent);

  const ir::Module& module_;
  ProcessId process_;
  ProcessGrid* grid_;
  HostQueues* queues_;
  std::vector<CheckFailure> check_failures_;
  int64_t checks_passed_ = 0;
  std::map<std::string, InterpValue> probes_;
  int call_depth_ = 0;
  Frame* current_frame_ = nullptr;  // the block being evaluated (regions nest inside it)
};

}  // namespace vkhlo::interp
