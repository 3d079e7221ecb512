// One execution of an executable's plan (execute.cc): the values of the plan's step lists, the
// command list being recorded, buffers kept alive until their work is done, and — in a process
// grid — the process it runs as (collectives.cc, process_ops.cc). It reads the loaded plan
// (loaded_plan.h) and knows values by their runtime types (tensor_desc.h): nothing of the IR.
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
#include "runtime/loaded_plan.h"
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

class Execution {
 public:
  Execution(const ExecutableState& exe, ProcessContext process = {});

  // A buffer no kernel of this execution writes (the caller's arguments, the plan's
  // constants): dispatches that only read such buffers may be recorded once (execute.cc).
  void Immutable(const std::shared_ptr<BufferState>& storage) { immutable_.insert(storage.get()); }

  // Runs step list `list` of the plan on `arguments` (its argument values, taken over so that
  // the list holds the only references to values handed to it: a while body's loop-carried
  // buffers can then be updated in place) and returns its results. The values the list made
  // are dropped when it ends.
  StatusOr<std::vector<RtValue>> RunList(uint32_t list, std::vector<RtValue> arguments);
  // Submits what is recorded and waits; buffers retired before now may then be freed.
  Status Flush();
  // Drops recorded but unsubmitted work (after an error), then waits for what was submitted.
  void Abandon();
  ExecutionStats& stats() { return stats_; }

 private:
  // One run of a step list: its slots (allocated at their first step, retired after their last).
  struct ListRun {
    uint32_t index = 0;
    const plan::StepList* list = nullptr;
    std::vector<std::shared_ptr<BufferState>> slots;
    uint32_t step = 0;  // the step running, in order over the list's segments
  };

  const plan::Plan& plan() const { return loaded_.plan; }
  const TensorDesc& TypeOf(uint32_t value) const { return loaded_.value_types[value]; }
  StatusOr<RtValue> Lookup(uint32_t value) const;
  StatusOr<std::vector<RtValue>> LookupAll(const std::vector<uint32_t>& values) const;
  Status SetResults(const std::vector<uint32_t>& ids, std::vector<RtValue> values, std::string_view what);
  Status RunStep(ListRun& run, const plan::Step& step);
  // Keeps buffers alive until the work recorded so far has finished.
  void Retire(std::vector<std::shared_ptr<BufferState>>& buffers);
  void Retire(std::shared_ptr<BufferState> buffer);
  StatusOr<device::CommandList*> List();
  // A new tensor for this execution's work: AllocateTensor, counting what is held until the
  // next Flush (a counted loop's submissions are bounded by it).
  StatusOr<std::shared_ptr<BufferState>> AllocateHeld(const TensorDesc& type);
  // Between two iterations of a counted loop: submits once the list holds enough dispatches or
  // the execution holds enough buffers until the next Flush; else nothing. The submission is
  // left running while the next iterations are recorded (SubmitInFlight).
  Status EndIteration();
  // Submits what is recorded without waiting for it, then waits for the submission before it:
  // the device runs one submission while the host records the next.
  Status SubmitInFlight();
  // Waits for the submission SubmitInFlight left running, then frees its buffers.
  Status WaitInFlight();
  // A buffer ref of a step of `run` as a view (values, the list's slots, constants); a value's
  // buffer is `value_storage` where given.
  StatusOr<device::BufferView> View(const ListRun& run, const plan::BufferRef& ref,
                                    const BufferState* value_storage = nullptr) const;
  Status RunDispatchStep(ListRun& run, const plan::DispatchStep& step);
  Status RunFft(const plan::FftStep& step);
  Status RunWhile(const plan::WhileStep& step);
  // A data-dependent while whose lists only record device work (WhileStep::batched): batches
  // of iterations, each condition's value copied to a flags buffer read once per batch.
  StatusOr<std::vector<RtValue>> RunBatched(const plan::WhileStep& step, std::vector<RtValue> state);
  Status RunValueStep(const plan::ValueStep& step);
  // Whether `storage`, the buffer of `value` (an input of the step being recorded, held in
  // `keep`), may be written by an in-place update: made by this execution in list `list` and
  // referred to by nothing else.
  bool Exclusive(const std::shared_ptr<BufferState>& storage, uint32_t value, uint32_t list,
                 const std::vector<std::shared_ptr<BufferState>>& keep) const;
  // The predicate (or index) a host decision reads, read back from the device; `op` and
  // `location` name it in profiles.
  StatusOr<int64_t> ReadScalar(const plan::ScalarRead& read, const RtValue& value, std::string_view op,
                               const std::string& location);
  // Profiles (profiler_ set): notes the dispatch just recorded; timed on the host, submits it
  // alone and waits for it.
  Status Profiled(ProfileEvent event);

  // A custom_call (custom_call_execute.cc); `operands` are tensors.
  StatusOr<std::vector<RtValue>> RunCustomCall(const plan::CustomCallStep& step, const std::vector<RtValue>& operands);

  // --- the process grid (collectives.cc, process_ops.cc) ---
  // A collective; `operands` are tensors. Returns one value per result.
  StatusOr<std::vector<RtValue>> RunCollective(const plan::CollectiveStep& step, const std::vector<RtValue>& operands);
  // replica_id, partition_id, send, recv, infeed, outfeed.
  StatusOr<std::vector<RtValue>> RunProcessOp(const plan::ProcessStep& step, const std::vector<RtValue>& operands);
  // Error text "<file:line:col>: error: '<op>' <what>".
  Status StepError(std::string_view op, const std::string& location, std::string_view what,
                   StatusCode code = StatusCode::kInvalidArgument) const;
  // Hands `values` (tensors) to the group at a rendezvous named `op` on `channel` (waiting
  // first for the work producing them) and returns every member's, in group order.
  StatusOr<std::vector<Contribution>> Exchange(const plan::CollectiveStep& step, const std::vector<ProcessId>& group,
                                               Contribution values);
  // The group's reduction of `values` by the transport (CollectiveTransport::ExactReduce) when
  // the step's reducer is exact (exact_reducer.h) and the transport takes it; else nullopt.
  StatusOr<std::optional<std::vector<RtValue>>> ExactReduce(const plan::CollectiveStep& step,
                                                            const std::vector<ProcessId>& group,
                                                            const Contribution& values);
  // A tensor another process handed over, readable on this process's device: itself when both
  // processes share the device, else a copy through host memory (its producer has finished).
  StatusOr<std::shared_ptr<BufferState>> Localize(std::shared_ptr<BufferState> tensor);
  // Device work on tensors, recorded in this execution's list.
  StatusOr<std::shared_ptr<BufferState>> NewTensor(const TensorDesc& type);
  Status Copy(const BufferState& from, uint64_t from_offset, const BufferState& to, uint64_t to_offset, uint64_t bytes);
  StatusOr<std::shared_ptr<BufferState>> Zeros(const TensorDesc& type);
  // Folds `contributions` (in order) with the step's reducer list.
  StatusOr<std::vector<RtValue>> Reduce(const plan::CollectiveStep& step, const std::vector<Contribution>& contributions);

  const ExecutableState& exe_;
  const LoadedPlan& loaded_;
  std::shared_ptr<ClientState> client_;
  ProcessContext process_;
  Profiler* profiler_ = nullptr;  // null unless this execution is profiled
  // The value of each plan value while the list making it runs (empty otherwise).
  std::vector<RtValue> values_;
  std::optional<device::CommandList> list_;
  std::vector<std::shared_ptr<BufferState>> retired_;
  // The submission SubmitInFlight left running, with the buffers its work uses.
  struct InFlight {
    device::Submission done;
    std::vector<std::shared_ptr<BufferState>> retired;
  };
  std::optional<InFlight> in_flight_;
  uint64_t allocated_since_flush_ = 0;  // bytes of AllocateHeld since the last Flush
  int list_depth_ = 0;                  // RunList calls in progress (1: the entry function's)
  ExecutionStats stats_;
  // Loop-invariant dispatches (execute.cc, RunDispatchStep), while a loop runs: by step and
  // dispatch, the views they read the last time they ran and the slots holding what they wrote.
  struct InvariantResult {
    std::vector<device::BufferView> reads;
    std::vector<std::pair<uint32_t, std::shared_ptr<BufferState>>> slots;  // slot, buffer
  };
  std::map<std::pair<const void*, size_t>, InvariantResult> invariant_;
  uint64_t invariant_bytes_ = 0;  // their slots
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
