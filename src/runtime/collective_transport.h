// How the processes of a grid exchange tensors: the one seam between the collective ops
// (collectives.cc, process_ops.cc) and where the processes live.
//
// The ops speak only of device tensors of the calling process: a contribution is the list of
// tensors a process hands to a rendezvous, and what comes back are tensors it can read on its
// own device. InProcessTransport (all processes in this OS process) hands the BufferStates
// themselves over; the receiving process reads them in place when they live on its device and
// copies them through host memory when they do not (Execution::Localize: processes on clients of
// their own, process_grid.h CreateProcessClients). A transport between machines
// (MPI) would download the local contribution, send bytes, and upload what it receives into new
// local buffers; the ops do not change.
//
// Rendezvous: every process of `group` calls Exchange with the same key; each gets all
// contributions in group order. Keys count per process, so the n-th execution of a collective
// (e.g. in a while loop) meets the other processes' n-th. Channels: Send never blocks, Recv
// waits for the oldest value. Waits end with DEADLINE_EXCEEDED after the timeout, or ABORTED
// once a process has failed (Abort).
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "runtime/state.h"

namespace vkhlo::runtime {

struct ProcessId {
  int64_t replica = 0;
  int64_t partition = 0;
  auto operator<=>(const ProcessId&) const = default;
};

// What one process hands over: tensors whose contents are complete (the caller has waited for
// the work producing them).
using Contribution = std::vector<std::shared_ptr<BufferState>>;

struct RendezvousKey {
  std::string op_name;
  int64_t channel_id = 0;
  std::vector<ProcessId> group;
  auto operator<=>(const RendezvousKey&) const = default;
};

class CollectiveTransport {
 public:
  virtual ~CollectiveTransport() = default;
  virtual StatusOr<std::vector<Contribution>> Exchange(const RendezvousKey& key, ProcessId self,
                                                       Contribution mine) = 0;
  virtual Status Send(std::string_view op_name, int64_t channel_id, Contribution values) = 0;
  virtual StatusOr<Contribution> Recv(std::string_view op_name, int64_t channel_id) = 0;
  // A process failed: every wait, now and later, fails with ABORTED naming it.
  virtual void Abort(ProcessId process, const Status& error) = 0;
};

// All processes of the grid in this OS process, on one or several devices (one barrier object
// per grid execution).
class InProcessTransport final : public CollectiveTransport {
 public:
  explicit InProcessTransport(std::chrono::milliseconds timeout) : timeout_(timeout) {}

  StatusOr<std::vector<Contribution>> Exchange(const RendezvousKey& key, ProcessId self, Contribution mine) override;
  Status Send(std::string_view op_name, int64_t channel_id, Contribution values) override;
  StatusOr<Contribution> Recv(std::string_view op_name, int64_t channel_id) override;
  void Abort(ProcessId process, const Status& error) override;
  std::optional<Status> first_error() const;

 private:
  struct Slot {
    std::map<ProcessId, Contribution> values;
    size_t readers = 0;
  };
  Status AbortedError(std::string_view op_name) const;  // mutex_ held

  const std::chrono::milliseconds timeout_;
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::map<std::pair<RendezvousKey, ProcessId>, int64_t> calls_;
  std::map<std::pair<RendezvousKey, int64_t>, Slot> slots_;
  std::map<int64_t, std::deque<Contribution>> channels_;
  std::optional<Status> first_error_;
  std::string abort_reason_;
};

}  // namespace vkhlo::runtime
