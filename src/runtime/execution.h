// One execution of an executable (execute.cc): the values of each block, the command list being
// recorded, buffers kept alive until their work is done, and — in a process grid — the process
// it runs as (collectives.cc, process_ops.cc).
//
// An Execution belongs to one thread; several Executions of one executable run at once (the
// executable is read-only while it runs, each Execution records its own command lists).
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "device/command_list.h"
#include "runtime/collective_transport.h"
#include "runtime/state.h"
#include "vkhlo/process_grid.h"

namespace vkhlo::runtime {

class Profiler;

// Where an execution runs in a process grid. The default: process (0, 0) of a 1 x 1 grid with
// no feeds.
struct ProcessContext {
  ProcessId id;
  int64_t num_replicas = 1;
  int64_t num_partitions = 1;
  CollectiveTransport* transport = nullptr;  // null outside a grid
  FeedQueue* infeed = nullptr;
  FeedQueue* outfeed = nullptr;
  Profiler* profiler = nullptr;  // set while an Execute is profiled (runtime/profiler.h)
  // ExecuteOptions::host_loops / max_dispatches_per_submission.
  bool host_loops = false;
  uint32_t max_dispatches_per_submission = 0;
};

// The values visible in a block: its own, then its parent's (regions read outer values).
struct Environment {
  const Environment* parent = nullptr;
  std::unordered_map<const ir::Value*, RtValue> values;

  const RtValue* Find(const ir::Value* v) const {
    for (const Environment* e = this; e != nullptr; e = e->parent) {
      auto it = e->values.find(v);
      if (it != e->values.end()) return &it->second;
    }
    return nullptr;
  }
};

class Execution {
 public:
  Execution(const ExecutableState& exe, ProcessContext process = {})
      : exe_(exe), client_(exe.client), process_(process), profiler_(process.profiler) {
    for (const auto& [value, constant] : exe.constants) {
      if (constant.kind == RtValue::Kind::kTensor) Immutable(constant.storage);
    }
  }

  // A buffer no kernel of this execution writes (the caller's arguments, the executable's
  // constants): dispatches that only read such buffers may be recorded once (execute.cc).
  void Immutable(const std::shared_ptr<BufferState>& storage) { immutable_.insert(storage.get()); }

  // `arguments` are taken over, so that a block holds the only references to values handed to
  // it (a while body's loop-carried buffers can then be updated in place).
  StatusOr<std::vector<RtValue>> RunBlock(const BlockProgram& program, std::vector<RtValue> arguments,
                                          const Environment* parent);
  // Submits what is recorded and waits; buffers retired before now may then be freed.
  Status Flush();
  // Drops recorded but unsubmitted work (after an error), then waits for what was submitted.
  void Abandon();
  ExecutionStats& stats() { return stats_; }

 private:
  StatusOr<RtValue> Lookup(const Environment& env, const ir::Value* v);
  // Keeps buffers alive until the work recorded so far has finished.
  void Retire(std::vector<std::shared_ptr<BufferState>>& buffers);
  void Retire(std::shared_ptr<BufferState> buffer);
  StatusOr<device::CommandList*> List();
  // A new tensor for this execution's work: AllocateTensor, counting what is held until the
  // next Flush (a counted loop's submissions are bounded by it).
  StatusOr<std::shared_ptr<BufferState>> AllocateHeld(const ir::Type& type);
  // Between two iterations of a counted loop: submits once the list holds enough dispatches or
  // the execution holds enough buffers until the next Flush; else nothing. The submission is
  // left running while the next iterations are recorded (SubmitInFlight).
  Status EndIteration();
  // Submits what is recorded without waiting for it, then waits for the submission before it:
  // the device runs one submission while the host records the next.
  Status SubmitInFlight();
  // Waits for the submission SubmitInFlight left running, then frees its buffers.
  Status WaitInFlight();
  // A data-dependent while whose regions only record device work (BlockProgram::batched):
  // batches of iterations, each condition's value copied to a flags buffer read once per batch.
  StatusOr<std::vector<RtValue>> RunBatched(const ir::Operation& op, const BlockProgram& cond,
                                            const BlockProgram& body, std::vector<RtValue> state,
                                            const Environment& env);
  Status RunKernel(const BlockProgram& program, const CompiledKernel& kernel,
                   const std::vector<std::shared_ptr<BufferState>>& slots, Environment& env);
  Status RecordDeviceKernel(const CompiledKernel& kernel, const std::vector<device::Binding>& values,
                            std::vector<std::shared_ptr<BufferState>>& keep, uint64_t read, uint64_t written,
                            bool in_place = false);
  // Whether `storage`, the buffer of `value` (an input of the kernel being recorded, in `env`
  // and `keep`), may be written by an in-place update: made by this execution and referred to
  // by nothing else.
  bool Exclusive(const std::shared_ptr<BufferState>& storage, const ir::Value* value, const Environment& env,
                 const std::vector<std::shared_ptr<BufferState>>& keep) const;
  // The predicate (or index) of control-flow op `op`, read back from the device.
  StatusOr<int64_t> ReadScalar(const ir::Operation& op, const RtValue& value);
  // Profiles (profiler_ set): notes the dispatch just recorded; timed on the host, submits it
  // alone and waits for it.
  Status Profiled(ProfileEvent event);
  Status RunOp(const BlockProgram& program, const ir::Operation& op, Environment& env);

  // A custom_call's target (custom_call_execute.cc); `operands` are tensors.
  StatusOr<std::vector<RtValue>> RunCustomCall(const ir::Operation& op, const std::vector<RtValue>& operands);

  // --- the process grid (collectives.cc, process_ops.cc) ---
  // A collective op; `operands` are tensors. Returns one value per result.
  StatusOr<std::vector<RtValue>> RunCollective(const ir::Operation& op, const std::vector<RtValue>& operands);
  // replica_id, partition_id, send, recv, infeed, outfeed.
  StatusOr<std::vector<RtValue>> RunProcessOp(const ir::Operation& op, const std::vector<RtValue>& operands);
  // Error text "<file:line:col>: error: '<op>' <what>".
  Status OpError(const ir::Operation& op, std::string_view what, StatusCode code = StatusCode::kInvalidArgument) const;
  // Hands `values` (tensors) to the group at a rendezvous (waiting first for the work producing
  // them) and returns every member's, in group order.
  StatusOr<std::vector<Contribution>> Exchange(const ir::Operation& op, const std::vector<ProcessId>& group,
                                               Contribution values);
  // The group's reduction of `values` by the transport (CollectiveTransport::ExactReduce) when
  // the op's reducer is exact (exact_reducer.h) and the transport takes it; else nullopt.
  StatusOr<std::optional<std::vector<RtValue>>> ExactReduce(const ir::Operation& op, const std::vector<ProcessId>& group,
                                                            const Contribution& values);
  // A tensor another process handed over, readable on this process's device: itself when both
  // processes share the device, else a copy through host memory (its producer has finished).
  StatusOr<std::shared_ptr<BufferState>> Localize(std::shared_ptr<BufferState> tensor);
  // Device work on tensors, recorded in this execution's list.
  StatusOr<std::shared_ptr<BufferState>> NewTensor(const ir::Type& type);
  Status Copy(const BufferState& from, uint64_t from_offset, const BufferState& to, uint64_t to_offset, uint64_t bytes);
  StatusOr<std::shared_ptr<BufferState>> Zeros(const ir::Type& type);
  // Folds `contributions` (in order) with the op's reducer (compiled as a function of the
  // executable: ExecutableState::reducers).
  StatusOr<std::vector<RtValue>> Reduce(const ir::Operation& op, const std::vector<Contribution>& contributions);

  const ExecutableState& exe_;
  std::shared_ptr<ClientState> client_;
  ProcessContext process_;
  Profiler* profiler_ = nullptr;  // null unless this execution is profiled
  std::optional<device::CommandList> list_;
  std::vector<std::shared_ptr<BufferState>> retired_;
  // The submission SubmitInFlight left running, with the buffers its work uses.
  struct InFlight {
    device::Submission done;
    std::vector<std::shared_ptr<BufferState>> retired;
  };
  std::optional<InFlight> in_flight_;
  uint64_t allocated_since_flush_ = 0;  // bytes of AllocateHeld since the last Flush
  ExecutionStats stats_;
  // Loop-invariant dispatches (execute.cc, RecordDeviceKernel), while a loop runs: by kernel and
  // dispatch, the views they read the last time they ran and the scratch holding what they wrote.
  struct InvariantResult {
    std::vector<device::BufferView> reads;
    std::vector<std::pair<size_t, std::shared_ptr<BufferState>>> scratch;  // index, buffer
  };
  std::map<std::pair<const void*, size_t>, InvariantResult> invariant_;
  uint64_t invariant_bytes_ = 0;  // their scratch
  int loop_depth_ = 0;            // whiles being run: invariant_ is kept while one is
  // Drops invariant_ (after the outermost loop): its buffers retired with the work so far.
  void ForgetInvariants();
  std::unordered_set<const BufferState*> immutable_;
  // This process's replica_id / partition_id tensors, by result type (made on first use).
  std::unordered_map<std::string, RtValue> ids_;
};

// Runs `run` as `process`: its arguments first copied to its executable's client where they live
// elsewhere (through host memory), then RunEntry. Used by RunProcessGrid (a thread per process)
// and MpiSession::Run (a rank per process).
StatusOr<std::vector<Buffer>> RunProcess(const ProcessRun& run, const ProcessContext& process);

// Runs `exe`'s entry on `arguments` (tensor parameters; token parameters take none) as
// `process`; the results flattened (tensors only). Used by Execute and RunProcessGrid.
StatusOr<std::vector<Buffer>> RunEntry(const ExecutableState& exe, std::span<const Buffer> arguments,
                                       const ProcessContext& process, ExecutionStats* stats);

}  // namespace vkhlo::runtime
